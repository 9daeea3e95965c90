// @ts-check
import { t } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { openAt } from "./jump.js";
import { getState, setState, toast } from "./store.js";

/**
 * A link to one message, forwarding a copy elsewhere, and a conversation's pinned messages. The
 * changes arrive on the stream like any other (`timeline.append` for a forward, `timeline.update`
 * for a pin), so every member's pinned list follows.
 */

/** @typedef {import('./types.js').TimelineItem} TimelineItem */

const enc = encodeURIComponent;

/** The address that opens the conversation at this message. @param {string} cid @param {string} mid */
const messageUrl = (cid, mid) => `${location.origin}/c/${enc(cid)}/m/${enc(mid)}`;

/** @param {unknown} e */
function say(e) {
  toast(e instanceof ApiError ? e.message : t("messages.unreachable"));
}

/** @param {string} cid @param {TimelineItem} it */
export async function copyMessageLink(cid, it) {
  const url = messageUrl(cid, it.message.message_id);
  try {
    await navigator.clipboard.writeText(url);
    toast(t("links.copied"));
  } catch {
    // No clipboard (an insecure origin, a refused permission): the link itself, to copy by hand.
    toast(url);
  }
}

/**
 * Opens the conversation at a linked message, once the server says I may read it; false when
 * it may not be shown (never mine to read, deleted or unknown: the server answers them alike).
 * @param {string} cid @param {string} mid
 */
export async function openLinkedMessage(cid, mid) {
  try {
    const r = await api.getMessage(cid, mid);
    openAt(cid, r.item.event_id, r.item.cursor, { replace: true });
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return false;
    throw e;
  }
}

/** Asks where to forward it. @param {string} cid @param {TimelineItem} it */
export function startForward(cid, it) {
  setState({ dialog: { type: "forward", cid, item: it } });
}

/** @param {string} cid @param {TimelineItem} it @param {string} to */
export async function forwardTo(cid, it, to) {
  try {
    await api.forwardMessage(cid, it.message.message_id, to);
    const title = getState().conversations.find((c) => c.conversation_id === to)?.title ?? "";
    toast(t("links.forwarded", { title }));
    return true;
  } catch (e) {
    say(e);
    return false;
  }
}

/** @param {string} cid @param {TimelineItem} it */
export async function togglePin(cid, it) {
  const on = !it.pinned;
  try {
    await api.pinMessage(cid, it.message.message_id, on);
    toast(on ? t("links.pinned") : t("links.unpinned"));
  } catch (e) {
    say(e);
  }
}

/** @param {string} cid */
export async function loadPins(cid) {
  try {
    const r = await api.listPins(cid);
    setState((s) => ({ pins: { ...s.pins, [cid]: r.items } }));
  } catch {
    // Not mine to read (any more): nothing pinned to show.
  }
}

/** A changed item keeps the loaded pinned list true: in (at the end) when pinned, out when not. @param {string} cid @param {TimelineItem} item */
export function notePinned(cid, item) {
  const list = getState().pins[cid];
  if (!list) return;
  const at = list.findIndex((i) => i.message.message_id === item.message.message_id);
  let next;
  if (item.pinned && !item.deleted) next = at >= 0 ? list.map((i, k) => (k === at ? item : i)) : [...list, item];
  else if (at >= 0) next = list.filter((_, k) => k !== at);
  else return;
  setState((s) => ({ pins: { ...s.pins, [cid]: next } }));
}
