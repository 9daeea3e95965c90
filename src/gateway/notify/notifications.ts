import type { z } from "zod";
import type { ZMuteRequest, ZPushSubscribeRequest, ZPushUnsubscribeRequest } from "../../../contracts/notifications.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { checkPushEndpoint } from "./index.js";
import { memberConversation } from "../conversations/conversations.js";

/**
 * A person's notification settings: their browsers' Web Push subscriptions and the
 * conversations they muted. Both are theirs alone and stay in the gateway's tables; each write
 * stores its idempotent response in the same transaction as the change.
 */

function recorded(core: Core, idem: IdemScope, status: number, change: () => unknown): StoredResponse {
  let stored: StoredResponse | undefined;
  core.db.transaction(() => {
    stored = { status, body: change() };
    core.idem.record(idem, stored, core.db);
  })();
  return stored!;
}

export async function subscribePush(
  core: Core,
  p: Principal,
  body: z.infer<typeof ZPushSubscribeRequest>,
  idem: IdemScope,
): Promise<StoredResponse> {
  core.me(p);
  checkPushEndpoint(body.endpoint, { allowLoopback: core.notify.allowLoopbackEndpoints });
  const saved = await core.notify.subscriptions.save(p, {
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    expiresAt: body.expirationTime ?? null,
  });
  return recorded(core, idem, 201, () => saved);
}

export async function unsubscribePush(
  core: Core,
  p: Principal,
  body: z.infer<typeof ZPushUnsubscribeRequest>,
  idem: IdemScope,
): Promise<StoredResponse> {
  core.me(p);
  const removed = await core.notify.subscriptions.remove(p, body.endpoint);
  return recorded(core, idem, 200, () => ({ removed }));
}

export function setMute(
  core: Core,
  p: Principal,
  conversationId: string,
  body: z.infer<typeof ZMuteRequest>,
  idem: IdemScope,
): StoredResponse {
  memberConversation(core, p, conversationId);
  return recorded(core, idem, 200, () => {
    core.notify.mutes.set(p.tenantId, p.entityId, conversationId, body.muted);
    return { conversation_id: conversationId, muted: body.muted };
  });
}

/** GET /v1/push/vapid-public-key: the server's key, for any signed-in person. */
export function vapidPublicKey(core: Core, p: Principal) {
  core.me(p);
  return { public_key: core.notify.vapidPublicKey };
}
