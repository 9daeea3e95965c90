// @ts-check
import { t } from "../i18n.js";
import { Avatar } from "./avatar.js";
import { html, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { clock } from "../format.js";
import { TokenText } from "./token-text.js";
import { FormattedText } from "./formatted-text.js";
import { ReplyQuote } from "./reply-quote.js";
import { ReactionChips, ReactionPicker } from "./reactions.js";
import { LinkPreviews } from "./link-preview.js";
import { deleteMessage, startCompose } from "../message-actions.js";
import { copyMessageLink, startForward, togglePin } from "../message-links.js";
import { openThread } from "../threads.js";
import { getState, setState } from "../store.js";

/** @typedef {import('../types.js').TimelineItem} TimelineItem */

const TICK_WORDS = {
  sending: () => t("bubble.sending"),
  sent: () => t("bubble.sent"),
  delivered: () => t("bubble.delivered"),
  read: () => t("bubble.read"),
  failed: () => t("bubble.not_sent"),
  queued: () => t("offline.queued"),
};

/**
 * A text bubble: mine on the right, theirs on the left with the sender's name in group chats.
 * Text is rendered as text, line breaks kept by CSS; `links` (people's messages) makes web and
 * mail addresses links. A message that mentions the reader is marked (a stronger bubble and the
 * words "mentions you"). Given the item it shows (`it`, `cid`), it also shows the quote it
 * replies to, "Forwarded from …", a pin mark, "edited", its links' previews, its reactions, and the actions on it:
 * Reply, React, Pin, Copy link, Forward, and Edit / Delete for its author (Delete for an admin too).
 * A thread's reply (`onEdit`: its panel edits it) has React, Edit and Delete only.
 * @param {{ text: string, ts: string, mine: boolean, sender?: string, status?: 'sending'|'queued'|'sent'|'delivered'|'read'|'failed', onRetry?: () => void, action?: boolean,
 *   links?: boolean, mentionsYou?: boolean, it?: TimelineItem, cid?: string, me?: string, admin?: boolean, mentioned?: string[], onEdit?: (it: TimelineItem) => void }} props
 */
export function MessageBubble({
  text,
  ts,
  mine,
  sender,
  status,
  onRetry,
  action,
  links,
  mentionsYou,
  it,
  cid,
  me,
  admin,
  mentioned,
  onEdit,
}) {
  // A call someone started: the room the server named (its ledger record's call.url), to join.
  const raw = /** @type {{ call?: { url?: unknown } } | undefined} */ (it?.message)?.call?.url;
  const callUrl =
    typeof raw === "string" && (raw.startsWith("https://") || raw.startsWith("http://")) ? raw : undefined;
  const [open, setOpen] = useState(false);
  const tools = !!(it && cid && !action);
  return html`<div class=${`msg ${mine ? "msg-out" : "msg-in"}${action ? " msg-action" : ""}${status === "failed" ? " msg-failed" : ""}${mentionsYou ? " msg-mentions-you" : ""}${open ? " msg-tools-open" : ""}`}>
    <div class="bubble" onClick=${tools ? (/** @type {MouseEvent} */ e) => tapped(e, open, setOpen) : undefined}>
      ${mentionsYou ? html`<span class="mention-mark">${t("bubble.mentions_you")}</span>` : null}
      ${
        sender && !mine
          ? html`<span class="sender">${
              it
                ? html`<${Avatar} name=${sender} id=${it.sender.entity_id} size="xs" /><button type="button" class="sender-btn" aria-haspopup="dialog"
                    onClick=${() => setState({ dialog: { type: "person", entityId: it.sender.entity_id } })}>${sender}</button>`
                : sender
            }</span>`
          : null
      }
      ${it?.forwarded ? html`<span class="forwarded-mark"><${Icon} name="forward" size=${13} /> ${t("bubble.forwarded_from", { name: it.forwarded.author_name })}</span>` : null}
      ${it?.reply_to ? html`<${ReplyQuote} reply=${it.reply_to} />` : null}
      ${
        callUrl
          ? html`<span class="text call-text"><${Icon} name="video" size=${16} /> ${mine ? t("calls.you_started") : t("calls.started_by", { name: it?.sender.display_name ?? "" })}</span>
        <a class="btn btn-small call-join" href=${callUrl} target="_blank" rel="noopener noreferrer">${t("calls.join")}</a>`
          : html`<span class="text">${action ? html`<span class="action-mark"><${Icon} name="bolt" size=${13} /></span>` : null}${links ? html`<${FormattedText} text=${text} mentioned=${mentioned} />` : html`<${TokenText} text=${text} mentioned=${mentioned} />`}</span>`
      }
      <span class="meta">${it?.pinned ? html`<span class="pinned-mark" title=${t("bubble.pinned_by", { name: it.pinned.by_name })}><${Icon} name="pin" size=${11} /><span class="visually-hidden">${t("bubble.pinned_by", { name: it.pinned.by_name })}</span></span> ` : null}${it?.edited_at ? html`<span class="edited-mark">${t("bubble.edited")}</span> ` : null}${clock(ts)}${
        mine
          ? html`<span class=${`tick tick-${status ?? "sent"}`} data-receipt=${status ?? "sent"}><span aria-hidden="true">${status === "sending" || status === "queued" ? html`<${Icon} name="clock" size=${12} />` : status === "failed" ? "!" : status === "delivered" || status === "read" ? "✓✓" : "✓"}</span><span class="visually-hidden">${TICK_WORDS[status ?? "sent"]()}</span></span>`
          : null
      }</span>
    </div>
    ${it && cid && it.previews?.length ? html`<${LinkPreviews} cid=${cid} it=${it} mine=${mine} />` : null}
    ${it && cid ? html`<${ReactionChips} cid=${cid} it=${it} me=${me} />` : null}
    ${it && cid && it.thread?.reply_count ? html`<${ThreadSummary} cid=${cid} it=${it} />` : null}
    ${
      it && cid && !action
        ? onEdit
          ? html`<${ReplyTools} cid=${cid} it=${it} mine=${mine} admin=${!!admin} onEdit=${onEdit} />`
          : html`<${MessageTools} cid=${cid} it=${it} mine=${mine} admin=${!!admin} />`
        : null
    }
    ${status === "failed" ? html`<button type="button" class="retry" onClick=${onRetry}>${t("upload.retry")}</button>` : null}
    ${status === "queued" ? html`<span class="queued-note" aria-hidden="true">${t("offline.queued")}</span>` : null}
  </div>`;
}

/** Closes the tools a tap opened on another bubble. @type {(() => void) | null} */
let closeOpened = null;

/**
 * On a touch screen (no hover), a tap on a bubble, not on a link or button in it, shows its tools
 * (and hides those shown on another); a second tap hides them.
 * @param {MouseEvent} e @param {boolean} open @param {(on: boolean) => void} setOpen
 */
function tapped(e, open, setOpen) {
  if (!matchMedia("(hover: none)").matches) return;
  if (e.target instanceof Element && e.target.closest("a, button, input, audio, video, summary")) return;
  closeOpened?.();
  closeOpened = open ? null : () => setOpen(false);
  setOpen(!open);
}

/**
 * The place a deleted message keeps: who sent it and that it was deleted, nothing of its text.
 * @param {{ ts: string, mine: boolean, sender?: string }} props
 */
export function DeletedBubble({ ts, mine, sender }) {
  return html`<div class=${`msg ${mine ? "msg-out" : "msg-in"} msg-deleted`}>
    <div class="bubble">
      ${sender && !mine ? html`<span class="sender">${sender}</span>` : null}
      <span class="text deleted-text">${t("bubble.deleted")}</span>
      <span class="meta">${clock(ts)}</span>
    </div>
  </div>`;
}

/**
 * Actions on one message, as buttons reachable by keyboard (shown on hover and focus).
 * @param {{ cid: string, it: TimelineItem, mine: boolean, admin: boolean }} props
 */
function MessageTools({ cid, it, mine, admin }) {
  const [picking, setPicking] = useState(false);
  const text = it.message.kind === "text" && !(/** @type {any} */ (it.message).call);
  return html`<div class="msg-tools">
    <button type="button" class="msg-tool" onClick=${() => startCompose("reply", cid, it)}>${t("bubble.reply")}</button>
    <button type="button" class="msg-tool" onClick=${() => openThread(cid, it.message.message_id)}>${t("threads.reply_in_thread")}</button>
    <button type="button" class="msg-tool" aria-expanded=${picking} onClick=${() => setPicking(!picking)}>${t("bubble.react")}</button>
    ${mine && text ? html`<button type="button" class="msg-tool" onClick=${() => startCompose("edit", cid, it)}>${t("bubble.edit")}</button>` : null}
    <button type="button" class="msg-tool" aria-pressed=${!!it.pinned} onClick=${() => togglePin(cid, it)}>${it.pinned ? t("bubble.unpin") : t("bubble.pin")}</button>
    <button type="button" class="msg-tool" onClick=${() => copyMessageLink(cid, it)}>${t("bubble.copy_link")}</button>
    ${
      text
        ? html`<button type="button" class="msg-tool" aria-haspopup="dialog"
            onClick=${() => setState({ dialog: { type: "schedule", mode: "remind", cid, messageId: it.message.message_id } })}>${t("scheduled.remind_me")}</button>`
        : null
    }
    ${text ? html`<button type="button" class="msg-tool" aria-haspopup="dialog" onClick=${() => startForward(cid, it)}>${t("bubble.forward")}</button>` : null}
    ${mine || admin ? html`<button type="button" class="msg-tool" onClick=${() => deleteMessage(cid, it)}>${t("bubble.delete")}</button>` : null}
    ${picking ? html`<${ReactionPicker} cid=${cid} it=${it} onDone=${() => setPicking(false)} />` : null}
  </div>`;
}

/**
 * Actions on a reply in a thread's panel: React, and Edit (in the panel's composer) / Delete.
 * @param {{ cid: string, it: TimelineItem, mine: boolean, admin: boolean, onEdit: (it: TimelineItem) => void }} props
 */
function ReplyTools({ cid, it, mine, admin, onEdit }) {
  const [picking, setPicking] = useState(false);
  const text = it.message.kind === "text" && !(/** @type {any} */ (it.message).call);
  return html`<div class="msg-tools">
    <button type="button" class="msg-tool" aria-expanded=${picking} onClick=${() => setPicking(!picking)}>${t("bubble.react")}</button>
    ${mine && text ? html`<button type="button" class="msg-tool" onClick=${() => onEdit(it)}>${t("bubble.edit")}</button>` : null}
    ${mine || admin ? html`<button type="button" class="msg-tool" onClick=${() => deleteMessage(cid, it)}>${t("bubble.delete")}</button>` : null}
    ${picking ? html`<${ReactionPicker} cid=${cid} it=${it} onDone=${() => setPicking(false)} />` : null}
  </div>`;
}

/**
 * Under a thread's root: how many replies and when the last came, opening the thread; a follower
 * with replies they have not read sees how many are new.
 * @param {{ cid: string, it: TimelineItem }} props
 */
function ThreadSummary({ cid, it }) {
  const thread = it.thread;
  if (!thread) return null;
  const unread = getState().threadMarks[it.message.message_id]?.unread_count ?? 0;
  return html`<button type="button" class="thread-summary" onClick=${() => openThread(cid, it.message.message_id)}>
    <${Icon} name="chat" size=${13} />
    <span class="thread-count-text">${t("threads.replies", { count: thread.reply_count })}</span>
    <span class="thread-last">${t("threads.last_reply", { time: clock(thread.last_reply_ts) })}</span>
    ${unread ? html`<span class="thread-unread">${t("threads.unread", { count: unread })}</span>` : null}
  </button>`;
}
