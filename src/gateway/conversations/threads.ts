import { formatCursor, parseCursor } from "../../../contracts/primitives.js";
import type { TTimelineItem } from "../../../contracts/gateway.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { presentTimelineItem } from "../pii.js";
import { isFollowing, threadMark } from "../projections/threads.js";
import { liveMessage, messageOf } from "./messages.js";

/** Replies one thread may hold: a thread is read whole, so it stays a size a page can show. */
const THREAD_REPLIES_MAX = 1000;

const human = (p: Principal) => ({ entity_id: p.entityId, actor_type: "human" as const });

const rootOf = (it: TTimelineItem) => (it.message as { thread_root_message_id?: string }).thread_root_message_id;

function notARoot(field: string): AppError {
  return new AppError("VALIDATION_ERROR", `${field} names a reply in a thread: reply in that thread instead`, {
    field,
  });
}

/**
 * The root a new thread reply names: a message of this conversation, not deleted (NOT_FOUND
 * otherwise, as the policy pack says too), not itself a thread reply, whose thread is not full.
 */
export function threadRootMessage(core: Core, p: Principal, conversationId: string, messageId: string): TTimelineItem {
  const field = "thread_root_message_id";
  const root = liveMessage(core, p, conversationId, messageId, field);
  if (rootOf(root) !== undefined) throw notARoot(field);
  const count = core.tenant(p.tenantId).threads.get(messageId)?.replies.length ?? 0;
  if (count >= THREAD_REPLIES_MAX) {
    throw new AppError("VALIDATION_ERROR", `A thread holds at most ${THREAD_REPLIES_MAX} replies`, {
      field,
      max: THREAD_REPLIES_MAX,
    });
  }
  return root;
}

/** A thread for a member: its root (deleted or not), its replies oldest first, and the reader's own mark. */
export function getThread(core: Core, p: Principal, conversationId: string, messageId: string) {
  const root = messageOf(core, p, conversationId, messageId);
  if (rootOf(root) !== undefined) throw notARoot("message_id");
  const state = core.tenant(p.tenantId);
  const t = state.threads.get(messageId);
  const present = (it: TTimelineItem) => presentTimelineItem(p.tenantId, it, core.office.vault);
  return {
    tenant_id: p.tenantId,
    conversation_id: conversationId,
    root: present(root),
    replies: (t?.replies ?? []).map(present),
    mark: t
      ? threadMark(t, p.entityId)
      : { root_message_id: messageId, following: root.sender.entity_id === p.entityId, unread_count: 0 },
    cursor: formatCursor(state.head),
  };
}

/** The threads of a conversation the caller follows, each with how many replies they have not read. */
export function listThreadMarks(core: Core, p: Principal, conversationId: string) {
  const state = core.tenant(p.tenantId);
  if (!state.conversations.get(conversationId)?.participants.has(p.entityId)) throw notFound("Conversation");
  const threads = [...(state.threadsByConversation.get(conversationId) ?? [])]
    .map((id) => state.threads.get(id)!)
    .filter((t) => isFollowing(t, p.entityId))
    .map((t) => threadMark(t, p.entityId));
  return { tenant_id: p.tenantId, conversation_id: conversationId, threads, cursor: formatCursor(state.head) };
}

const accepted =
  (conversationId: string, messageId: string) => (r: { accepted_event_ids: string[]; cursor: string }) => ({
    accepted: true,
    conversation_id: conversationId,
    message_id: messageId,
    created_event_ids: r.accepted_event_ids,
    cursor: r.cursor,
  });

/** Follow a thread (told of its new replies) or stop: one `thread.followed`, the caller's alone. */
export async function followThread(
  core: Core,
  p: Principal,
  conversationId: string,
  messageId: string,
  body: { on: boolean },
  idem?: IdemScope,
): Promise<StoredResponse> {
  const root = liveMessage(core, p, conversationId, messageId);
  if (rootOf(root) !== undefined) throw notARoot("message_id");
  const ev = core.event(p.tenantId, "thread.followed", conversationId, human(p), {
    message_id: messageId,
    on: body.on,
  });
  return core.commit(p.tenantId, [ev], { idem, body: accepted(conversationId, messageId) });
}

/** The caller has read the thread's replies up to `cursor`: one `thread.read` (drives their unread mark). */
export async function readThread(
  core: Core,
  p: Principal,
  conversationId: string,
  messageId: string,
  body: { cursor: string },
  idem?: IdemScope,
): Promise<StoredResponse> {
  const root = liveMessage(core, p, conversationId, messageId);
  if (rootOf(root) !== undefined) throw notARoot("message_id");
  const seq = parseCursor(body.cursor) ?? 0;
  if (seq < 1) throw new AppError("VALIDATION_ERROR", "cursor names no event", { field: "cursor" });
  // A cursor past this tenant's head is not one of its cursors (another tenant's, or invented).
  if (seq > core.tenant(p.tenantId).head) throw notFound("Cursor");
  const ev = core.event(p.tenantId, "thread.read", conversationId, human(p), { message_id: messageId, up_to_seq: seq });
  return core.commit(p.tenantId, [ev], { idem, body: accepted(conversationId, messageId) });
}
