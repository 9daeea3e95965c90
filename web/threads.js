// @ts-check
import { t } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { getState, seqOf, setState, toast } from "./store.js";
import { navigate } from "./router.js";

/**
 * Threads: a message's replies beside the conversation. The open thread is the route
 * (`/c/<chat>/t/<root>`), so a reload or a notification's link opens it again. Replies arrive
 * on the stream as `thread.append` (never in the timeline), the root's count as
 * `timeline.update`, and my own follow state and unread count as `thread.update`.
 */

/** @typedef {import('./types.js').TimelineItem} TimelineItem */
/** @typedef {{ root_message_id: string, following: boolean, unread_count: number }} ThreadMark */
/** @typedef {{ conversation_id: string, root: TimelineItem, replies: TimelineItem[], mark: ThreadMark, cursor: string }} ThreadView */
/** @typedef {{ cid: string, root: TimelineItem, replies: TimelineItem[] }} ReplyThread */

const enc = encodeURIComponent;

/** @param {unknown} e */
function say(e) {
  toast(e instanceof ApiError ? e.message : t("messages.unreachable"));
}

/** @param {string} cid @param {string} root */
export function openThread(cid, root) {
  navigate(`/c/${enc(cid)}/t/${enc(root)}`);
}

/** @param {string} cid */
export function closeThread(cid) {
  navigate(`/c/${enc(cid)}`);
}

/** @param {string} root @param {ThreadMark | { following: boolean, unread_count: number }} mark */
function setMark(root, mark) {
  setState((s) => ({
    threadMarks: { ...s.threadMarks, [root]: { following: mark.following, unread_count: mark.unread_count } },
  }));
}

/** The marks of the threads I follow in this conversation (the timeline shows their unread counts). @param {string} cid */
export async function loadThreadMarks(cid) {
  try {
    const r = await api.listThreadMarks(cid);
    for (const m of r.threads) setMark(m.root_message_id, m);
  } catch {
    /* the counts stay as the stream brings them */
  }
}

/**
 * Loads a thread whole; false when it may not be shown (not mine to read, or no such message).
 * @param {string} cid @param {string} root
 */
export async function loadReplyThread(cid, root) {
  try {
    const view = await api.getThread(cid, root);
    setState((s) => ({ replyThreads: { ...s.replyThreads, [root]: { cid, root: view.root, replies: view.replies } } }));
    setMark(root, view.mark);
    if (view.mark.unread_count > 0) markThreadRead(cid, root, view.cursor);
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return false;
    say(e);
    return true;
  }
}

/** @type {Record<string, number>} */
const readSent = {};
/** @param {string} cid @param {string} root @param {string} cursor */
function markThreadRead(cid, root, cursor) {
  if (seqOf(cursor) <= (readSent[root] ?? -1)) return;
  readSent[root] = seqOf(cursor);
  setMark(root, { following: getState().threadMarks[root]?.following ?? true, unread_count: 0 });
  api.readThread(cid, root, cursor).catch(() => {
    readSent[root] = -1;
  });
}

/** Whether this thread is open on screen now. @param {string} cid @param {string} root */
function onScreen(cid, root) {
  const r = getState().route;
  return r.conversationId === cid && r.threadRoot === root && document.visibilityState === "visible";
}

/** SSE `thread.append`: a new reply joins the thread if it is loaded. @param {{ conversation_id: string, root_message_id: string, item: TimelineItem }} data */
export function threadAppended(data) {
  const th = getState().replyThreads[data.root_message_id];
  if (!th || th.replies.some((r) => r.event_id === data.item.event_id)) return;
  const replies = [...th.replies, data.item].sort((a, b) => seqOf(a.cursor) - seqOf(b.cursor));
  setState((s) => ({ replyThreads: { ...s.replyThreads, [data.root_message_id]: { ...th, replies } } }));
}

/** SSE `thread.update`: my follow state and unread count; read at once when the thread is on screen. @param {{ conversation_id: string } & ThreadMark} data */
export function threadMarked(data) {
  setMark(data.root_message_id, data);
  const th = getState().replyThreads[data.root_message_id];
  const last = th?.replies.at(-1);
  if (data.unread_count > 0 && last && onScreen(data.conversation_id, data.root_message_id))
    markThreadRead(data.conversation_id, data.root_message_id, last.cursor);
}

/**
 * SSE `timeline.update` of a thread's reply or root: the loaded thread shows the change. True
 * when the item is a reply (it has no place in the timeline).
 * @param {TimelineItem} item
 */
export function threadItemChanged(item) {
  const rootId = /** @type {any} */ (item.message).thread_root_message_id;
  const th = getState().replyThreads[rootId ?? item.message.message_id];
  if (th) {
    const next = rootId
      ? { ...th, replies: th.replies.map((r) => (r.event_id === item.event_id ? item : r)) }
      : { ...th, root: item };
    setState((s) => ({ replyThreads: { ...s.replyThreads, [rootId ?? item.message.message_id]: next } }));
  }
  return typeof rootId === "string";
}

/** Sends a reply in the thread; true once the server took it (it arrives on the stream). @param {string} cid @param {string} root @param {string} text */
export async function sendThreadReply(cid, root, text) {
  try {
    await api.sendText(
      cid,
      text,
      `local_${Date.now().toString(36)}`,
      `thr_${crypto.randomUUID()}`,
      undefined,
      undefined,
      root,
    );
    return true;
  } catch (e) {
    say(e);
    return false;
  }
}

/** Follow the thread, or stop; my mark follows on the stream. @param {string} cid @param {string} root @param {boolean} on */
export async function setFollowing(cid, root, on) {
  try {
    await api.followThread(cid, root, on);
    toast(t(on ? "threads.followed" : "threads.unfollowed"));
  } catch (e) {
    say(e);
  }
}
