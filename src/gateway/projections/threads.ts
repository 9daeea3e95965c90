import type { TStoredEvent } from "../../../contracts/events.js";
import type { TTimelineItem } from "../../../contracts/gateway.js";
import type { Delta, TenantState, ThreadRow } from "./state.js";

const seqOf = (it: TTimelineItem) => Number(it.cursor.slice(4));

export function isFollowing(t: ThreadRow, entityId: string): boolean {
  const chosen = t.chosen.get(entityId);
  if (chosen !== undefined) return chosen;
  return entityId === t.root_author || t.repliers.has(entityId);
}

/** Replies by others, not deleted, after the person's read mark; 0 for someone not following. */
function unreadOf(t: ThreadRow, entityId: string): number {
  if (!isFollowing(t, entityId)) return 0;
  const mark = t.read.get(entityId) ?? 0;
  let n = 0;
  for (let i = t.replies.length - 1; i >= 0; i--) {
    const r = t.replies[i]!;
    if (seqOf(r) <= mark) break;
    if (!r.deleted && r.sender.entity_id !== entityId) n++;
  }
  return n;
}

/** One reader's mark on a thread (what `GET …/threads` and the `thread.update` frame say). */
export function threadMark(t: ThreadRow, entityId: string) {
  return {
    root_message_id: t.root_message_id,
    following: isFollowing(t, entityId),
    unread_count: unreadOf(t, entityId),
  };
}

function markFrame(state: TenantState, t: ThreadRow, entityId: string): Delta {
  return {
    event: "thread.update",
    data: { tenant_id: state.tenant_id, conversation_id: t.conversation_id, ...threadMark(t, entityId) },
    audience: new Set([entityId]),
  };
}

function rootFrame(state: TenantState, t: ThreadRow): Delta[] {
  const root = state.messages.get(t.root_message_id);
  const conv = state.conversations.get(t.conversation_id);
  if (!root) return [];
  return [
    {
      event: "timeline.update",
      data: { tenant_id: state.tenant_id, conversation_id: t.conversation_id, item: root },
      ...(conv ? { audience: conv.participants } : {}),
    },
  ];
}

/** The root's `thread` summary: replies not deleted, and when the last one was sent. */
function summarize(state: TenantState, t: ThreadRow): void {
  const root = state.messages.get(t.root_message_id);
  if (!root) return;
  const live = t.replies.filter((r) => !r.deleted);
  const last = t.replies.at(-1);
  if (!last) return;
  root.thread = { reply_count: live.length, last_reply_ts: (live.at(-1) ?? last).ts };
}

function threadOf(state: TenantState, rootId: string, conversationId: string): ThreadRow | undefined {
  let t = state.threads.get(rootId);
  if (t) return t;
  const root = state.messages.get(rootId);
  if (!root) return undefined;
  t = {
    root_message_id: rootId,
    conversation_id: conversationId,
    root_author: root.sender.entity_id,
    replies: [],
    repliers: new Set(),
    chosen: new Map(),
    read: new Map(),
  };
  state.threads.set(rootId, t);
  let set = state.threadsByConversation.get(conversationId);
  if (!set) state.threadsByConversation.set(conversationId, (set = new Set()));
  set.add(rootId);
  return t;
}

/**
 * A new reply (already indexed in `state.messages`): it joins its thread, never the timeline.
 * Frames: `thread.append` to the members, the root's new count as `timeline.update`, and to each
 * follower whose mark changed (the replier, who has read it; every follower it is new to) a
 * `thread.update` of their own.
 */
export function addThreadReply(
  state: TenantState,
  ev: Extract<TStoredEvent, { event_type: "message.sent" }>,
  item: TTimelineItem,
  rootId: string,
): Delta[] {
  const t = threadOf(state, rootId, ev.conversation_id);
  if (!t) return [];
  const author = ev.actor.entity_id;
  t.replies.push(item);
  t.repliers.add(author);
  t.chosen.delete(author);
  t.read.set(author, Math.max(t.read.get(author) ?? 0, ev.seq));
  summarize(state, t);
  const conv = state.conversations.get(ev.conversation_id);
  const deltas: Delta[] = [
    {
      event: "thread.append",
      data: { tenant_id: state.tenant_id, conversation_id: ev.conversation_id, root_message_id: rootId, item },
      ...(conv ? { audience: conv.participants } : {}),
      carries: [item.message.message_id],
    },
    ...rootFrame(state, t),
  ];
  for (const id of conv?.participant_entity_ids ?? [])
    if (id === author || isFollowing(t, id)) deltas.push(markFrame(state, t, id));
  return deltas;
}

/** thread.followed / thread.read: the person's own mark (following a thread starts it read). */
export function applyThreadMarks(state: TenantState, ev: TStoredEvent): Delta[] {
  if (ev.event_type !== "thread.followed" && ev.event_type !== "thread.read") return [];
  const t = threadOf(state, ev.payload.message_id, ev.conversation_id);
  if (!t) return [];
  const who = ev.actor.entity_id;
  if (ev.event_type === "thread.followed") {
    t.chosen.set(who, ev.payload.on);
    if (ev.payload.on) t.read.set(who, Math.max(t.read.get(who) ?? 0, ev.seq));
  } else t.read.set(who, Math.max(t.read.get(who) ?? 0, ev.payload.up_to_seq));
  return [markFrame(state, t, who)];
}

/** A reply deleted: the root's count follows, and so do the followers' unread counts. */
export function threadReplyDeleted(state: TenantState, rootId: string): Delta[] {
  const t = state.threads.get(rootId);
  if (!t) return [];
  summarize(state, t);
  const conv = state.conversations.get(t.conversation_id);
  const deltas = rootFrame(state, t);
  for (const id of conv?.participant_entity_ids ?? []) if (isFollowing(t, id)) deltas.push(markFrame(state, t, id));
  return deltas;
}
