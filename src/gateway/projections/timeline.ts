import type { TStoredEvent } from "../../../contracts/events.js";
import type { TTimelineItem } from "../../../contracts/gateway.js";
import { formatCursor } from "../../../contracts/primitives.js";
import { displayName, type Delta, type TenantState } from "./state.js";
import { carriedBy, indexMessage, replyOf } from "./message-changes.js";
import { addThreadReply } from "./threads.js";

/**
 * A `job.progress` whose Tracking card has the id of a card already in the chat (a tool's
 * progress during its call) moves that card in place: the item's card becomes the recorded one,
 * sent as a `timeline.update` (and the same after a reload or a restart, which replay it).
 */
function moveCard(state: TenantState, ev: Extract<TStoredEvent, { event_type: "job.progress" }>): Delta[] {
  const card = ev.payload.tracking_card;
  const row = state.cards.get(card.card_id);
  if (!row || row.job_id !== ev.payload.job_id || row.card_type !== "job.tracking") return [];
  const list = state.timeline.get(row.conversation_id) ?? [];
  let item: TTimelineItem | undefined;
  for (let i = list.length - 1; i >= 0 && !item; i--)
    if (list[i]!.message.card?.card_id === card.card_id) item = list[i];
  if (!item) return [];
  item.message = { ...item.message, card };
  state.cards.set(card.card_id, { ...row, state: card.state, buttons: card.buttons });
  const conv = state.conversations.get(row.conversation_id);
  return [
    {
      event: "timeline.update",
      data: { tenant_id: state.tenant_id, conversation_id: row.conversation_id, item },
      ...(conv ? { audience: conv.participants } : {}),
      carries: carriedBy(item),
    },
  ];
}

/** projection_timeline_items: one row per `message.sent` (thread replies go to their thread), in tenant_seq order. */
export function applyTimeline(state: TenantState, ev: TStoredEvent): Delta[] {
  if (ev.event_type === "job.progress") return moveCard(state, ev);
  if (ev.event_type !== "message.sent") return [];
  const conv = state.conversations.get(ev.conversation_id);
  const item: TTimelineItem = {
    kind: "message",
    ts: ev.ts,
    event_id: ev.event_id,
    cursor: formatCursor(ev.seq),
    sender: {
      entity_id: ev.actor.entity_id,
      display_name: displayName(state, ev.actor.entity_id),
      actor_type: ev.actor.actor_type,
    },
    ...(ev.job_id ? { job_id: ev.job_id } : {}),
    ...replyOf(state, ev.payload),
    ...(ev.payload.forwarded_from
      ? { forwarded: { author_name: displayName(state, ev.payload.forwarded_from.author_entity_id) } }
      : {}),
    message: ev.payload,
  };
  indexMessage(state, item);
  // A thread reply lives in its thread: the timeline only shows the root's count change.
  if (ev.payload.thread_root_message_id !== undefined)
    return addThreadReply(state, ev, item, ev.payload.thread_root_message_id);
  let list = state.timeline.get(ev.conversation_id);
  if (!list) state.timeline.set(ev.conversation_id, (list = []));
  list.push(item);
  const card = ev.payload.card;
  if (card && ev.job_id) {
    state.cards.set(card.card_id, {
      card_id: card.card_id,
      job_id: ev.job_id,
      conversation_id: ev.conversation_id,
      card_type: card.card_type,
      state: card.state,
      buttons: card.buttons,
    });
  }
  return [
    {
      event: "timeline.append",
      data: { tenant_id: state.tenant_id, conversation_id: ev.conversation_id, item },
      ...(conv ? { audience: conv.participants } : {}),
      carries: carriedBy(item),
    },
  ];
}

/** Items with seq in (after, before), oldest first, at most `limit` (the newest ones when paging back). */
export function pageTimeline(
  items: readonly TTimelineItem[],
  opts: { after?: number; before?: number; limit: number },
): TTimelineItem[] {
  const seqOf = (it: TTimelineItem) => Number(it.cursor.slice(4));
  let lo = 0;
  let hi = items.length;
  if (opts.after !== undefined) lo = lowerBound(items, opts.after + 1, seqOf);
  if (opts.before !== undefined) hi = lowerBound(items, opts.before, seqOf);
  if (opts.after !== undefined) return items.slice(lo, Math.min(hi, lo + opts.limit));
  return items.slice(Math.max(lo, hi - opts.limit), hi);
}

function lowerBound<T>(arr: readonly T[], target: number, key: (t: T) => number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(arr[mid]!) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
