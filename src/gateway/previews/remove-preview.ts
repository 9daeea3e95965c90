import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { linksOf } from "./links.js";
import { liveMessage } from "../conversations/messages.js";

/**
 * The author takes the preview of one of their message's links off (or keeps one from coming,
 * for a link of the text whose preview has not arrived yet): one `message.preview_removed`, so
 * every member's view loses it, now and after a restart. Anyone else is refused.
 */
export async function removePreview(
  core: Core,
  p: Principal,
  conversationId: string,
  messageId: string,
  body: { url: string },
  idem?: IdemScope,
): Promise<StoredResponse> {
  const item = liveMessage(core, p, conversationId, messageId);
  if (item.sender.entity_id !== p.entityId)
    throw new AppError("UNAUTHORIZED_ACTION", "Only the author can take a link preview off a message");
  const shown = item.previews?.some((x) => x.url === body.url) ?? false;
  const text = item.message.body_text;
  if (!shown && !(text !== undefined && linksOf(text, 50).includes(body.url)))
    throw new AppError("NOT_FOUND", "The message has no preview or link with this url", { field: "url" });
  const ev = core.event(
    p.tenantId,
    "message.preview_removed",
    conversationId,
    {
      entity_id: p.entityId,
      actor_type: "human",
    },
    { message_id: messageId, url: body.url },
  );
  return core.commit(p.tenantId, [ev], {
    idem,
    body: (r) => ({
      accepted: true,
      conversation_id: conversationId,
      message_id: messageId,
      created_event_ids: r.accepted_event_ids,
      cursor: r.cursor,
    }),
  });
}
