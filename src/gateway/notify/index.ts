/** Notifications: who is told (decide.ts), mutes, Web Push subscriptions, keys and the bounded sender. */
export { createNotifier } from "./notifier.js";
export { createMuteStore } from "./mutes.js";
export { createSubscriptionStore } from "./subscriptions.js";
export { loadVapidKeys } from "./vapid-keys.js";
export { createPushSender, DEFAULT_PUSH_LIMITS, type PushLimits, type PushSender } from "./push-sender.js";
export { checkPushEndpoint } from "./endpoint.js";
