import type { TRedactedValue } from "../../../contracts/events.js";
import type { TTimelineItem } from "../../../contracts/gateway.js";
import { formatCursor } from "../../../contracts/primitives.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { presentTimelineItem } from "../pii.js";
import { memberConversation } from "./conversations.js";
import { liveMessage } from "./messages.js";

/** Pinned messages one conversation may hold; pinning one more is refused until one is unpinned. */
const PINS_MAX = 50;

const human = (p: Principal) => ({ entity_id: p.entityId, actor_type: "human" as const });

/**
 * One message, for a link to it: a member of its conversation gets the item (to open the chat
 * there); anyone else — not a member, another workspace, a deleted or unknown message — gets the
 * same NOT_FOUND, so a link tells an outsider nothing, not even that the message exists.
 */
export function getMessage(core: Core, p: Principal, conversationId: string, messageId: string) {
  const item = liveMessage(core, p, conversationId, messageId);
  return {
    tenant_id: p.tenantId,
    conversation_id: conversationId,
    item: presentTimelineItem(p.tenantId, item, core.office.vault),
  };
}

/** The conversation's pinned messages, in the order they were pinned (members only). */
export function listPins(core: Core, p: Principal, conversationId: string) {
  memberConversation(core, p, conversationId);
  const state = core.tenant(p.tenantId);
  const items = (state.pins.get(conversationId) ?? [])
    .map((id) => state.messages.get(id))
    .filter((it): it is TTimelineItem => !!it && !it.deleted);
  return {
    tenant_id: p.tenantId,
    conversation_id: conversationId,
    items: items.map((it) => presentTimelineItem(p.tenantId, it, core.office.vault)),
    cursor: formatCursor(state.head),
  };
}

/**
 * A copy of a text message into another conversation of the caller: one `message.sent` in the
 * target with `forwarded_from` (where the original is and who wrote it). The copy keeps the text as
 * the ledger holds it (PII stays in the vault, referenced), not its mentions: nobody is notified
 * twice for one `@`. Office does not act on it: a forward shares words, it asks nothing of an agent.
 */
export async function forwardMessage(
  core: Core,
  p: Principal,
  conversationId: string,
  messageId: string,
  body: { to_conversation_id: string },
  idem?: IdemScope,
): Promise<StoredResponse> {
  const item = liveMessage(core, p, conversationId, messageId);
  memberConversation(core, p, body.to_conversation_id);
  const m = item.message as TTimelineItem["message"] & { pii_refs?: TRedactedValue[] };
  if (m.kind !== "text" || m.action || m.body_text === undefined)
    throw new AppError("VALIDATION_ERROR", "Only text messages can be forwarded", { field: "message_id" });
  const newId = core.ids("msg");
  const ev = core.event(p.tenantId, "message.sent", body.to_conversation_id, human(p), {
    message_id: newId,
    kind: "text",
    body_text: m.body_text,
    ...(m.pii_refs?.length ? { pii_refs: m.pii_refs } : {}),
    forwarded_from: { conversation_id: conversationId, message_id: messageId, author_entity_id: item.sender.entity_id },
  });
  return core.commit(p.tenantId, [ev], {
    idem,
    body: (r) => ({
      accepted: true,
      conversation_id: body.to_conversation_id,
      message_id: newId,
      created_event_ids: r.accepted_event_ids,
      cursor: r.cursor,
    }),
  });
}

/** Pins a message to its conversation (`on: true`) or unpins it: one `message.pinned`, for every member to see. */
export async function pinMessage(
  core: Core,
  p: Principal,
  conversationId: string,
  messageId: string,
  body: { on: boolean },
  idem?: IdemScope,
): Promise<StoredResponse> {
  const item = liveMessage(core, p, conversationId, messageId);
  const count = core.tenant(p.tenantId).pins.get(conversationId)?.length ?? 0;
  if (body.on && !item.pinned && count >= PINS_MAX) {
    throw new AppError("VALIDATION_ERROR", `A conversation holds at most ${PINS_MAX} pinned messages`, {
      field: "on",
      max: PINS_MAX,
    });
  }
  const ev = core.event(p.tenantId, "message.pinned", conversationId, human(p), { message_id: messageId, on: body.on });
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
