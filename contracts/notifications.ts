import { z } from "zod";
import { ZConversationId, ZEntityId, ZIsoTime, ZJobId, ZTenantId } from "./primitives.js";

/**
 * Notifications: who is told what, in the tab (SSE `notification` frames), through the
 * browser's Notification API, and by Web Push to phones and closed tabs.
 */

/** Why a person is told: a direct message, a mention, a job waiting on them, a job they requested or approve that ended, an invitee's answer to a meeting they asked for, a new reply in a thread they follow. */
export const NOTIFICATION_KINDS = [
  "direct_message",
  "mention",
  "job_approval",
  "job_waiting",
  "job_completed",
  "job_failed",
  "invite_answer",
  "meeting_reminder",
  "thread_reply",
] as const;

/** What a notification says. Built only from what the ledger holds (stored, redacted text, truncated). */
export const ZNotification = z.object({
  kind: z.enum(NOTIFICATION_KINDS),
  /** The ledger event it tells of: also the notification's tag, so a push and an in-tab notice collapse into one. */
  event_id: z.string(),
  conversation_id: ZConversationId,
  job_id: ZJobId.optional(),
  title: z.string(),
  body: z.string(),
  /** Where a click goes, a path of this app: `/c/<conversation>` or `/jobs/<job>`. */
  url: z.string(),
  ts: ZIsoTime,
});
export type TNotification = z.infer<typeof ZNotification>;

/** SSE `notification`: sent only to the person it is for. */
export const ZSseNotification = z.object({ tenant_id: ZTenantId, entity_id: ZEntityId, notification: ZNotification });

/** Base64url without padding, as `PushSubscription.toJSON()` gives the keys. */
const base64url = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "must be base64url without padding");

/**
 * `POST /v1/push/subscriptions`: the browser's `PushSubscription.toJSON()`. The endpoint is the
 * push service's URL (https); `p256dh` is the device's P-256 public key (65 bytes, 87 characters)
 * and `auth` its 16-byte secret (22 characters).
 */
export const ZPushSubscribeRequest = z.strictObject({
  endpoint: z.string().min(1).max(2048),
  expirationTime: z.number().int().nonnegative().nullable().optional(),
  keys: z.strictObject({ p256dh: base64url(87, 87), auth: base64url(22, 22) }),
});

/** `DELETE /v1/push/subscriptions`: which of my subscriptions to remove. */
export const ZPushUnsubscribeRequest = z.strictObject({ endpoint: z.string().min(1).max(2048) });

/** The server's VAPID public key (base64url): the `applicationServerKey` browsers subscribe with. */
export const ZVapidPublicKey = z.object({ public_key: z.string() });

export const ZPushSubscribed = z.object({ subscription_id: z.string(), created: z.boolean() });
export const ZPushUnsubscribed = z.object({ removed: z.boolean() });

/** `PUT /v1/conversations/:id/mute`: my own setting for one conversation. */
export const ZMuteRequest = z.strictObject({ muted: z.boolean() });
export const ZMuteState = z.object({ conversation_id: ZConversationId, muted: z.boolean() });
