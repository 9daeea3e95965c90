// @ts-check
// What this page tells a conversation's other members as it goes: read up to here, delivered to
// this device, typing now. Each is sent soon and at most once for the same mark.
import { api } from "./api.js";
import { noteUnread } from "./unread.js";
import { getState, mergeConversation, seqOf } from "./store.js";

/** @type {Record<string, number>} */
const readSent = {};
/** @param {string} cid */
export function markReadSoon(cid) {
  if (document.visibilityState !== "visible" || getState().route.conversationId !== cid) return;
  const items = getState().timelines[cid]?.items ?? [];
  const last = items[items.length - 1];
  if (!last) return;
  const seq = seqOf(last.cursor);
  const conv = getState().conversations.find((c) => c.conversation_id === cid);
  if (conv?.unread_count) noteUnread(cid, items, conv.unread_count, getState().me?.entity_id);
  if (conv?.unread_count) mergeConversation({ conversation_id: cid, unread_count: 0 });
  if (seq <= (readSent[cid] ?? -1)) return;
  readSent[cid] = seq;
  api.markRead(cid, last.cursor).catch(() => {
    readSent[cid] = -1;
  });
}

/** @type {Record<string, number>} */
const typingSent = {};
/**
 * Tells the conversation's other members I am typing, at most every 3 s (the server shows it for
 * 6 s and throttles too).
 * @param {string} cid
 */
export function typingSoon(cid) {
  const now = Date.now();
  if (now - (typingSent[cid] ?? 0) < 3000) return;
  typingSent[cid] = now;
  api.typing(cid).catch(() => {});
}

/** A message sent ends this bout of typing: the next keystroke starts another. @param {string} cid */
export function typingDone(cid) {
  delete typingSent[cid];
}

/** @type {Record<string, { seq: number, timer: ReturnType<typeof setTimeout> | null }>} */
const deliveredSent = {};
/**
 * Tells the senders a message reached this device (not read yet); marks close together are sent
 * once, for the latest.
 * @param {string} cid @param {string} cursor
 */
export function markDeliveredSoon(cid, cursor) {
  const d = (deliveredSent[cid] ??= { seq: -1, timer: null });
  if (seqOf(cursor) <= d.seq) return;
  d.seq = seqOf(cursor);
  if (d.timer) return;
  d.timer = setTimeout(() => {
    d.timer = null;
    if (d.seq <= (readSent[cid] ?? -1)) return;
    api.markDelivered(cid, `seq:${d.seq}`).catch(() => {});
  }, 400);
}
