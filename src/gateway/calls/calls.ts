import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";

/**
 * Start a call: a Jitsi Meet room named by Office's meeting-room rule (a keyed hash, here of the
 * new message's id: unguessable, one room per call) on the configured JITSI_BASE_URL, posted to
 * the conversation as one `message.sent` whose `call.url` (and text) is that room. Without a
 * configured Jitsi server there is no room to name: SERVICE_UNAVAILABLE, and nothing is written.
 */
export async function startCall(
  core: Core,
  p: Principal,
  conversationId: string,
  idem?: IdemScope,
): Promise<StoredResponse> {
  if (!core.tenant(p.tenantId).conversations.get(conversationId)?.participants.has(p.entityId))
    throw notFound("Conversation");
  const messageId = core.ids("msg");
  const url = core.office.callRoomUrl(`${p.tenantId}|${conversationId}|${messageId}`);
  if (url === null)
    throw new AppError("SERVICE_UNAVAILABLE", "Calls are not set up on this server: JITSI_BASE_URL is not set");
  const ev = core.event(
    p.tenantId,
    "message.sent",
    conversationId,
    { entity_id: p.entityId, actor_type: "human" },
    { message_id: messageId, kind: "text", body_text: url, call: { url } },
  );
  return core.commit(p.tenantId, [ev], {
    idem,
    body: (r) => ({
      accepted: true,
      conversation_id: conversationId,
      message_id: messageId,
      url,
      created_event_ids: r.accepted_event_ids,
      cursor: r.cursor,
    }),
  });
}
