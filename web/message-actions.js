// @ts-check
import { t } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { confirmDialog } from "./button-flow.js";
import { getState, setState, toast } from "./store.js";

/**
 * What a person does to a message already sent: reply to it, edit or delete their own, react.
 * Each is one request; the change itself arrives on the stream (timeline.update), for everyone.
 */

/** @typedef {import('./types.js').TimelineItem} TimelineItem */
/** @typedef {import('./store.js').ComposeMode} ComposeMode */

/** How much of the message the composer's "Replying to" line shows. */
const SNIPPET = 100;

/** @param {TimelineItem} it */
function snippetOf(it) {
  const m = /** @type {any} */ (it.message);
  const text = m.body_text ?? m.artifact?.title ?? m.card?.title ?? "";
  return text.length > SNIPPET ? `${text.slice(0, SNIPPET - 1)}…` : text;
}

/** The composer answers `it` (or, for an edit, replaces its text) until sent or cancelled. @param {'reply'|'edit'} kind @param {string} cid @param {TimelineItem} it */
export function startCompose(kind, cid, it) {
  /** @type {ComposeMode} */
  const mode = {
    kind,
    conversationId: cid,
    message_id: it.message.message_id,
    sender_name: it.sender.display_name,
    snippet: snippetOf(it),
  };
  const m = /** @type {any} */ (it.message);
  const text = kind === "edit" ? (m.body_text ?? "") : "";
  setState((s) => ({
    compose: mode,
    ...(kind === "edit" ? { prefill: { conversationId: cid, text, n: (s.prefill?.n ?? 0) + 1 } } : {}),
  }));
  if (kind === "reply")
    requestAnimationFrame(() => /** @type {HTMLElement | null} */ (document.querySelector(".composer-input"))?.focus());
}

/**
 * ↑ in an empty message box: edit my latest text message of this conversation (the one its Edit
 * button would edit). False when there is none.
 * @param {string} cid
 */
export function editLastMine(cid) {
  const s = getState();
  const items = s.timelines[cid]?.items ?? [];
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    const m = /** @type {any} */ (it?.message);
    if (!it || it.deleted || it.sender.entity_id !== s.me?.entity_id || m?.kind !== "text" || m.action) continue;
    startCompose("edit", cid, it);
    return true;
  }
  return false;
}

export function cancelCompose() {
  setState({ compose: null });
}

/** @param {unknown} e */
function say(e) {
  toast(e instanceof ApiError ? e.message : t("messages.unreachable"));
}

/** @param {string} cid @param {string} mid @param {string} text */
export async function saveEdit(cid, mid, text) {
  try {
    await api.editMessage(cid, mid, text);
    return true;
  } catch (e) {
    say(e);
    return false;
  }
}

/** @param {string} cid @param {TimelineItem} it */
export async function deleteMessage(cid, it) {
  const ok = await confirmDialog({
    title: t("messages.delete_title"),
    body: t("messages.delete_body"),
    okLabel: t("bubble.delete"),
    danger: true,
  });
  if (!ok) return;
  try {
    await api.deleteMessage(cid, it.message.message_id);
  } catch (e) {
    say(e);
  }
}

/** Puts my reaction on, or takes it off when it is already mine. @param {string} cid @param {TimelineItem} it @param {string} emoji */
export async function toggleReaction(cid, it, emoji) {
  const me = getState().me?.entity_id ?? "";
  const mine = (it.reactions ?? []).some((r) => r.emoji === emoji && r.entity_ids.includes(me));
  try {
    await api.react(cid, it.message.message_id, emoji, !mine);
  } catch (e) {
    say(e);
  }
}

/** Scrolls to a message and highlights it for a moment (a reply's quote jumps here). @param {string} messageId */
export function jumpToMessage(messageId) {
  const el = /** @type {HTMLElement | null} */ (document.querySelector(`[data-message-id="${CSS.escape(messageId)}"]`));
  if (!el) {
    toast(t("messages.further_back"));
    return;
  }
  el.scrollIntoView({ block: "center", behavior: "smooth" });
  el.classList.add("item-highlight");
  el.focus({ preventScroll: true });
  setTimeout(() => el.classList.remove("item-highlight"), 2000);
}
