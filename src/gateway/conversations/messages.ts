import { LIMITS } from "../../../contracts/facts.js";
import type { TTimelineItem } from "../../../contracts/gateway.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { scrubText } from "../pii.js";
import { notFound, type Core } from "../core.js";
import { pageTimeline } from "../projections/timeline.js";
import { editWindowMs } from "../admin/policies.js";

/** Different emoji one message may carry; a reaction beyond them is refused (each can be put on by everyone). */
const REACTION_KINDS_MAX = 20;

/**
 * A message of this conversation that is not deleted, as the caller (a member) sees it; anything
 * else — another conversation's, unknown, deleted — is NOT_FOUND, naming the field that pointed
 * at it. The policy pack checks the same on append; this says it first, in the caller's terms.
 */
export function liveMessage(
  core: Core,
  p: Principal,
  conversationId: string,
  messageId: string,
  field = "message_id",
): TTimelineItem {
  const item = messageOf(core, p, conversationId, messageId, field);
  if (item.deleted) throw new AppError("NOT_FOUND", `${field} names a deleted message`, { field });
  return item;
}

/** A message of this conversation (its timeline's, or a reply in one of its threads), deleted or not; the same NOT_FOUND for anything else. */
export function messageOf(
  core: Core,
  p: Principal,
  conversationId: string,
  messageId: string,
  field = "message_id",
): TTimelineItem {
  const state = core.tenant(p.tenantId);
  if (!state.conversations.get(conversationId)?.participants.has(p.entityId)) throw notFound("Conversation");
  const item = state.messages.get(messageId);
  const seq = item ? Number(item.cursor.slice(4)) : 0;
  const root = (item?.message as { thread_root_message_id?: string } | undefined)?.thread_root_message_id;
  // Found by its position in this conversation's timeline (or its thread's): a message of another conversation is not there.
  const list = root !== undefined ? state.threads.get(root)?.replies : state.timeline.get(conversationId);
  const thread = root !== undefined ? state.threads.get(root) : undefined;
  if (
    !item ||
    (thread && thread.conversation_id !== conversationId) ||
    pageTimeline(list ?? [], { after: seq - 1, limit: 1 })[0] !== item
  ) {
    throw new AppError("NOT_FOUND", `${field} does not name a message of this conversation`, { field });
  }
  return item;
}

const accepted =
  (conversationId: string, messageId: string) => (r: { accepted_event_ids: string[]; cursor: string }) => ({
    accepted: true,
    conversation_id: conversationId,
    message_id: messageId,
    created_event_ids: r.accepted_event_ids,
    cursor: r.cursor,
  });

const human = (p: Principal) => ({ entity_id: p.entityId, actor_type: "human" as const });

/** The author's new text: PII to the vault like any message, one `message.edited`, 202. */
export async function editMessage(
  core: Core,
  p: Principal,
  conversationId: string,
  messageId: string,
  body: { body_text: string },
  idem?: IdemScope,
): Promise<StoredResponse> {
  const item = liveMessage(core, p, conversationId, messageId);
  if (item.sender.entity_id !== p.entityId)
    throw new AppError("UNAUTHORIZED_ACTION", "Only the author can edit a message");
  if (item.message.kind !== "text" || item.message.action || item.message.call)
    throw new AppError("VALIDATION_ERROR", "Only text messages can be edited", { field: "message_id" });
  if (body.body_text.trim() === "")
    throw new AppError("VALIDATION_ERROR", "The message is empty", { field: "body_text" });
  const windowMs = editWindowMs(core, p.tenantId);
  if (windowMs !== null && core.clock.now() - Date.parse(item.ts) > windowMs) {
    throw new AppError(
      "EDIT_WINDOW_CLOSED",
      `A message can be edited for ${Math.round(windowMs / 1000)} s after it was sent`,
      {
        edit_window_seconds: Math.round(windowMs / 1000),
      },
    );
  }
  const { text, refs } = scrubText(p.tenantId, body.body_text, core.office.vault);
  const ev = core.event(p.tenantId, "message.edited", conversationId, human(p), {
    message_id: messageId,
    body_text: text.slice(0, LIMITS.messageChars),
    ...(refs.length ? { pii_refs: refs } : {}),
  });
  return core.commit(p.tenantId, [ev], { idem, body: accepted(conversationId, messageId) });
}

/**
 * Withdraws a message (its author, or an admin): one `message.deleted` carrying the tenant-salted
 * BLAKE3 hash of the text the ledger last held for it, never the text; the projections, the
 * resume log and members' ledger reads forget the text.
 */
export async function deleteMessage(
  core: Core,
  p: Principal,
  conversationId: string,
  messageId: string,
  idem?: IdemScope,
): Promise<StoredResponse> {
  const item = liveMessage(core, p, conversationId, messageId);
  if (item.sender.entity_id !== p.entityId && !core.me(p).roles.includes("admin")) {
    throw new AppError("UNAUTHORIZED_ACTION", "Only the author or an admin can delete a message");
  }
  const text = item.message.body_text;
  const ev = core.event(p.tenantId, "message.deleted", conversationId, human(p), {
    message_id: messageId,
    ...(text !== undefined ? { body_hash: core.office.vault.hashOf(p.tenantId, "text", text) } : {}),
  });
  return core.commit(p.tenantId, [ev], { idem, body: accepted(conversationId, messageId) });
}

/** Puts the caller's reaction on a message (`on: true`) or takes it off; one `message.reacted`. */
export async function reactToMessage(
  core: Core,
  p: Principal,
  conversationId: string,
  messageId: string,
  body: { emoji: string; on: boolean },
  idem?: IdemScope,
): Promise<StoredResponse> {
  const item = liveMessage(core, p, conversationId, messageId);
  const kinds = item.reactions ?? [];
  if (body.on && kinds.length >= REACTION_KINDS_MAX && !kinds.some((r) => r.emoji === body.emoji)) {
    throw new AppError("VALIDATION_ERROR", `A message carries at most ${REACTION_KINDS_MAX} different reactions`, {
      field: "emoji",
      max: REACTION_KINDS_MAX,
    });
  }
  const ev = core.event(p.tenantId, "message.reacted", conversationId, human(p), {
    message_id: messageId,
    emoji: body.emoji,
    on: body.on,
  });
  return core.commit(p.tenantId, [ev], { idem, body: accepted(conversationId, messageId) });
}
