// @ts-check
// Where "New messages" goes: noted when a conversation with unread messages is opened (just
// before they are marked read), kept while it stays open, forgotten when it is left.
import { seqOf } from "./store.js";

/** @type {Record<string, string>} conversation → event_id of the first unread item */
const firstUnread = {};

/**
 * The first of the last `unread` items written by someone else, counting back from the end.
 * @param {string} cid @param {import('./types.js').TimelineItem[]} items @param {number} unread @param {string | undefined} me
 */
export function noteUnread(cid, items, unread, me) {
  if (firstUnread[cid] || unread <= 0) return;
  let n = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i].sender.entity_id === me) continue;
    n++;
    if (n === unread) {
      firstUnread[cid] = items[i].event_id;
      return;
    }
  }
  // More unread than loaded: the divider goes above the oldest item shown.
  const first = items.find((it) => seqOf(it.cursor) >= 0);
  if (first) firstUnread[cid] = first.event_id;
}

/** @param {string} cid @returns {string | undefined} */
export function unreadDivider(cid) {
  return firstUnread[cid];
}

/** @param {string} cid */
export function forgetUnread(cid) {
  delete firstUnread[cid];
}
