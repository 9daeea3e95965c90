// @ts-check
// Keeps the UI live: one SSE stream resumed from the last cursor; while it is down, a 10 s poll;
// on CURSOR_TOO_OLD (or a stream the server closed), a full resync before reconnecting.
import { api, ApiError } from "./api.js";
import { loadDrawer, loadSession, refreshAll } from "./actions.js";
import { markDeliveredSoon, markReadSoon } from "./read-marks.js";
import {
  clearTyping,
  dropConversation,
  getState,
  mergeChannel,
  mergeConversation,
  mergeItems,
  mergeJob,
  replaceItem,
  seqOf,
  setPresence,
  setState,
  setEntities,
  setTyping,
} from "./store.js";
import { showNotification } from "./notify.js";
import { announce, itemLine } from "./announce.js";
import { maybeFocusCard } from "./focus.js";
import { navigate } from "./router.js";
import { notePinned } from "./message-links.js";
import { threadAppended, threadItemChanged, threadMarked } from "./threads.js";

/**
 * Poll interval and first retry delay while the stream is down: 10 s and 1 s unless the page
 * sets `window.LOGLINE_LIVE = { pollMs, retryMs }` before the app starts (tests do, to keep
 * the wait short). Read when needed, so a setting applies to the next outage.
 * @returns {{ pollMs: number, retryMs: number }}
 */
function timing() {
  const t = /** @type {any} */ (globalThis).LOGLINE_LIVE ?? {};
  const ms = (/** @type {unknown} */ v, /** @type {number} */ d) => (typeof v === "number" && v >= 50 ? v : d);
  return { pollMs: ms(t.pollMs, 10_000), retryMs: ms(t.retryMs, 1000) };
}

/** Seconds between polls, for the "updates every N s" banner. */
export function pollSeconds() {
  return Math.round(timing().pollMs / 100) / 10;
}

/** @type {{ close: () => void } | null} */
let stream = null;
/** @type {string | null} */
let cursor = null;
/** @type {ReturnType<typeof setInterval> | null} */
let poller = null;
/** @type {ReturnType<typeof setTimeout> | null} */
let retryTimer = null;
let retryDelay = 0;
/** @type {ReturnType<typeof setTimeout> | null} */
let drawerTimer = null;

/** @param {string | null} from */
export function startLive(from) {
  cursor = from ?? cursor;
  connect();
}

export function stopLive() {
  stream?.close();
  stream = null;
  if (poller) clearInterval(poller);
  if (retryTimer) clearTimeout(retryTimer);
  poller = retryTimer = null;
}

function connect() {
  stream?.close();
  stream = api.openStream(cursor, { onFrame, onOpen, onDown });
}

function onOpen() {
  retryDelay = 0;
  setState({ connection: "live" });
  if (poller) clearInterval(poller);
  poller = null;
}

/** @param {boolean} closed */
function onDown(closed) {
  setState({ connection: "down" });
  if (!poller) poller = setInterval(() => void poll(), timing().pollMs);
  if (!closed) return; // the browser is already reconnecting, with Last-Event-ID
  stream?.close();
  stream = null;
  if (retryTimer) return;
  // A closed stream may mean the cursor is gone (410); resync first so nothing is missed.
  // Back off 1 s, 2 s, 4 s … up to 15 s; the poll keeps the page current meanwhile.
  retryDelay = retryDelay ? Math.min(retryDelay * 2, 15_000) : timing().retryMs;
  retryTimer = setTimeout(() => {
    retryTimer = null;
    void resync();
  }, retryDelay);
}

async function poll() {
  try {
    const c = await refreshAll();
    if (c && seqOf(c) > seqOf(cursor ?? "")) cursor = c;
  } catch {
    /* still down; the next tick tries again */
  }
}

/** @param {string} id */
function advance(id) {
  if (id && seqOf(id) > seqOf(cursor ?? "")) cursor = id;
}

/**
 * @param {string} name
 * @param {any} data
 * @param {string} id
 */
function onFrame(name, data, id) {
  switch (name) {
    case "hello":
      if (!cursor && data?.cursor) cursor = data.cursor;
      break;
    case "timeline.append": {
      const cid = data.conversation_id;
      const fresh = mergeItems(cid, [data.item]);
      // Their message is what they were typing.
      if (data.item?.sender?.entity_id) clearTyping(cid, data.item.sender.entity_id);
      const s = getState();
      if (fresh.length) {
        const mine = data.item.sender?.entity_id === s.me?.entity_id;
        const open = s.route.conversationId === cid && document.visibilityState === "visible";
        const conv = s.conversations.find((c) => c.conversation_id === cid);
        const preview = previewOf(data.item);
        mergeConversation({
          conversation_id: cid,
          last_item_ts: data.item.ts,
          last_preview: preview,
          unread_count: open || mine ? (conv?.unread_count ?? 0) : (conv?.unread_count ?? 0) + 1,
        });
        if (open) markReadSoon(cid);
        else if (!mine && typeof data.item.cursor === "string") markDeliveredSoon(cid, data.item.cursor);
        // Said once, briefly, for someone else's new item in the conversation on screen.
        if (open && !mine) announce(itemLine(data.item));
        if (open) maybeFocusCard(data.item);
        const jobId = data.item.message?.card?.job_id ?? data.item.job_id;
        if (jobId) refreshDrawerSoon(jobId);
      }
      break;
    }
    case "timeline.update":
      // A thread's reply changes in its thread only; a root changes in both.
      if (threadItemChanged(data.item)) break;
      replaceItem(data.conversation_id, data.item);
      notePinned(data.conversation_id, data.item);
      break;
    case "thread.append":
      if (data?.item) threadAppended(data);
      break;
    case "thread.update":
      if (data?.root_message_id) threadMarked(data);
      break;
    case "conversation.update":
      if (data?.conversation?.conversation_id) {
        const c = { ...data.conversation };
        // Unread is per reader; a count for the open conversation is already being cleared.
        if (getState().route.conversationId === c.conversation_id) delete c.unread_count;
        mergeConversation(c);
      }
      break;
    case "channel.update":
      if (data?.channel?.conversation_id) mergeChannel(data.channel);
      break;
    case "conversation.removed":
      if (data?.conversation_id) {
        dropConversation(data.conversation_id);
        if (getState().route.conversationId === data.conversation_id) navigate("/");
      }
      break;
    case "job.update":
      if (data?.job?.job_id) {
        mergeJob(data.job);
        refreshDrawerSoon(data.job.job_id);
      }
      break;
    case "presence.update":
      if (data?.entity_id) setPresence(data.entity_id, data.presence);
      break;
    case "artifact.added":
      if (data?.job_id) refreshDrawerSoon(data.job_id);
      break;
    case "notification":
      if (data?.notification) showNotification(data.notification);
      break;
    case "entity.update":
      // A profile changed (name, avatar, zone): every list, header and bubble reads names from here.
      // The frame is the whole public profile: a picture or status it no longer names was removed.
      if (data?.entity?.entity_id) {
        setEntities([
          {
            avatar_url: undefined,
            status_text: undefined,
            status_until: undefined,
            dnd_until: undefined,
            ...data.entity,
          },
        ]);
        renameDirectChats(data.entity);
      }
      break;
    case "typing":
      // Shown for the server's 6 s from now by this page's clock (the two clocks may differ).
      if (data?.conversation_id && data.entity_id !== getState().me?.entity_id)
        setTyping(data.conversation_id, data.entity_id, String(data.display_name ?? ""), 6000);
      break;
    case "policy.update":
      // The Policies admin screen (if open) reloads through its own route.
      dispatchEvent(new CustomEvent("logline:policies"));
      break;
    case "error":
      if (data?.code === "CURSOR_TOO_OLD" || data?.recommended_action === "resync") void resync();
      else if (data?.recommended_action === "reauthenticate") location.assign("/signin");
      return;
  }
  advance(id);
}

/**
 * The server no longer holds what we missed: reload the list and the open views, then stream
 * from the cursor that reload returned. If the reload fails, the outage path retries it —
 * streaming from "now" without it would silently skip the gap.
 */
async function resync() {
  stream?.close();
  stream = null;
  try {
    cursor = (await refreshAll()) ?? cursor;
  } catch (e) {
    // This session was ended (signed out elsewhere, or ended from another device): back to sign-in.
    if (e instanceof ApiError && e.status === 401) return void signedOutElsewhere();
    onDown(true);
    return;
  }
  connect();
}

/** Back online: the stream is tried again now, not after the back-off. */
export function reconnectNow() {
  if (!getState().me || getState().connection === "live") return;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = null;
  retryDelay = 0;
  void resync();
}

async function signedOutElsewhere() {
  stopLive();
  setState({ connection: "down" });
  await loadSession().catch(() => {});
}

/** @param {string} jobId */
function refreshDrawerSoon(jobId) {
  if (getState().drawer?.job_id !== jobId) return;
  if (drawerTimer) clearTimeout(drawerTimer);
  drawerTimer = setTimeout(() => void loadDrawer(jobId), 150);
}

/** @param {any} item */
function previewOf(item) {
  const m = item.message ?? {};
  if (m.card) return { kind: "card", text: m.card.title, job_id: m.card.job_id, card_type: m.card.card_type };
  if (m.artifact) return { kind: "artifact", text: m.artifact.title };
  return { kind: m.kind ?? "text", text: m.body_text ?? "" };
}

/**
 * A direct chat is named after the other person (the server names it so when the list loads):
 * their new name shows in the list, the header and the tab's title at once.
 * @param {{ entity_id: string, display_name?: string }} entity
 */
function renameDirectChats(entity) {
  const s = getState();
  const name = entity.display_name;
  if (!name || entity.entity_id === s.me?.entity_id) return;
  const named = (/** @type {import('./types.js').ConversationSummary} */ c) =>
    c.kind === "direct" && c.participant_entity_ids.includes(entity.entity_id) && c.title !== name;
  if (!s.conversations.some(named)) return;
  setState({ conversations: s.conversations.map((c) => (named(c) ? { ...c, title: name } : c)) });
}
