// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useLayoutEffect, useRef, useState } from "../lib/preact.js";
import { LIMITS } from "../lib/facts.js";
import { Icon } from "./icon.js";
import { DeletedBubble, MessageBubble } from "./message-bubble.js";
import { closeThread, loadReplyThread, sendThreadReply, setFollowing } from "../threads.js";
import { saveEdit } from "../message-actions.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {import('../types.js').TimelineItem} TimelineItem */

/**
 * One thread, beside the conversation on a wide screen and over it on a phone: the root, its
 * replies oldest first, Follow / Following, and its own composer (Enter sends, Shift+Enter is a
 * new line, Escape closes the thread). Each reply has its tools as in the timeline: React, and
 * Edit / Delete for its author (Delete for an admin too); an edit happens in the thread's own
 * composer (↑ in an empty box edits my latest reply, Escape cancels the edit).
 * @param {{ s: State, cid: string, root: string }} props
 */
export function ThreadPanel({ s, cid, root }) {
  const [missing, setMissing] = useState(false);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  /** The reply being edited in this composer, if any. */
  const [editing, setEditing] = useState(/** @type {string | null} */ (null));
  const input = useRef(/** @type {HTMLTextAreaElement | null} */ (null));
  const list = useRef(/** @type {HTMLDivElement | null} */ (null));
  const th = s.replyThreads[root];
  const mark = s.threadMarks[root];
  const me = s.me?.entity_id;
  const admin = s.me?.roles?.includes("admin") ?? false;
  const conv = s.conversations.find((c) => c.conversation_id === cid);
  const group = (conv?.participant_entity_ids.length ?? 2) > 2;

  useEffect(() => {
    setMissing(false);
    void loadReplyThread(cid, root).then((ok) => setMissing(!ok));
  }, [cid, root]);
  // Opening a thread puts the caret in its composer, ready to reply, once it is there.
  const ready = !!th && !th.root.deleted;
  useEffect(() => {
    if (ready) input.current?.focus();
  }, [ready]);
  const count = th?.replies.length ?? 0;
  useLayoutEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [count]);

  const close = () => {
    closeThread(cid);
    // Back to where the thread was opened from: the root's replies button, else the chat's composer.
    requestAnimationFrame(() => {
      const at = /** @type {HTMLElement | null} */ (
        document.querySelector(`[data-message-id="${CSS.escape(root)}"] .thread-summary`)
      );
      (at ?? /** @type {HTMLElement | null} */ (document.querySelector(".composer-input")))?.focus();
    });
  };
  /** The composer edits `it` (one of my replies) until saved or cancelled. @param {TimelineItem} it */
  const startEdit = (it) => {
    setEditing(it.message.message_id);
    setText(/** @type {any} */ (it.message).body_text ?? "");
    requestAnimationFrame(() => input.current?.focus());
  };
  const leaveEdit = () => {
    setEditing(null);
    setText("");
    input.current?.focus();
  };
  const send = async () => {
    const words = text.trim();
    if (!words || busy) return;
    setBusy(true);
    const ok = editing ? await saveEdit(cid, editing, words) : await sendThreadReply(cid, root, words);
    setBusy(false);
    if (ok) {
      setText("");
      setEditing(null);
    }
    input.current?.focus();
  };
  /** ↑ in an empty box: my latest reply that is text and not deleted. */
  const lastMine = () =>
    [...(th?.replies ?? [])]
      .reverse()
      .find(
        (r) =>
          r.sender.entity_id === me &&
          !r.deleted &&
          r.message.kind === "text" &&
          !(/** @type {any} */ (r.message).call),
      );
  const following = mark?.following ?? (th ? th.root.sender.entity_id === me : false);

  /** @param {TimelineItem} it @param {boolean} reply */
  const bubble = (it, reply) => {
    const mine = it.sender.entity_id === me;
    const sender = group || it.sender.actor_type === "agent" ? it.sender.display_name : undefined;
    if (it.deleted) return html`<${DeletedBubble} ts=${it.ts} mine=${mine} sender=${sender} />`;
    const m = /** @type {any} */ (it.message);
    return html`<${MessageBubble} text=${m.body_text ?? m.artifact?.title ?? m.card?.title ?? ""} ts=${it.ts} mine=${mine} sender=${mine ? undefined : (sender ?? it.sender.display_name)}
      links=${it.sender.actor_type === "human"} ...${reply ? { it, cid, me, admin, onEdit: startEdit } : {}} />`;
  };

  return html`<aside class="thread-panel" aria-labelledby="thread-title"
    onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Escape" && !e.defaultPrevented) {
        e.preventDefault();
        close();
      }
    }}>
    <header class="thread-head">
      <h2 id="thread-title">${t("threads.title")}</h2>
      ${
        th
          ? html`<button type="button" class="btn btn-small btn-secondary thread-follow" aria-pressed=${following} onClick=${() => void setFollowing(cid, root, !following)}>
              ${following ? t("threads.following") : t("threads.follow")}</button>`
          : null
      }
      <button type="button" class="icon-btn thread-close" aria-label=${t("threads.close")} title=${t("threads.close")} onClick=${close}><${Icon} name="x" /></button>
    </header>
    <div class="thread-body" ref=${list} tabIndex="0" aria-label=${t("threads.replies_label")}>
      ${missing ? html`<p class="thread-empty">${t("threads.missing")}</p>` : null}
      ${!missing && !th ? html`<div class="loading">${t("timeline.loading")}</div>` : null}
      ${th ? html`<div class="thread-root" data-message-id=${th.root.message.message_id}>${bubble(th.root, false)}</div>` : null}
      ${th ? html`<div class="thread-count" role="separator"><span>${t("threads.replies", { count: th.replies.filter((r) => !r.deleted).length })}</span></div>` : null}
      ${th?.replies.map((it) => html`<div key=${it.event_id} class="item thread-reply" data-message-id=${it.message.message_id}>${bubble(it, true)}</div>`)}
    </div>
    ${
      th && !missing && !th.root.deleted
        ? html`<form class="thread-composer" onSubmit=${(/** @type {Event} */ e) => {
            e.preventDefault();
            void send();
          }}>
            ${
              editing
                ? html`<div class="compose-mode thread-editing" role="status">
                    <span class="compose-mode-text"><strong>${t("composer.editing")}</strong></span>
                    <button type="button" class="chip-x" aria-label=${t("composer.cancel_edit")} onClick=${leaveEdit}>×</button>
                  </div>`
                : null
            }
            <textarea ref=${input} class="thread-input" rows="2" maxlength=${LIMITS.messageChars} aria-label=${t("threads.reply_label")} placeholder=${t("threads.reply_placeholder")}
              value=${text} onInput=${(/** @type {any} */ e) => setText(e.currentTarget.value)}
              onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
                  e.preventDefault();
                  void send();
                } else if (e.key === "Escape" && editing) {
                  e.preventDefault();
                  leaveEdit();
                } else if (e.key === "ArrowUp" && !text && !editing) {
                  const it = lastMine();
                  if (it) {
                    e.preventDefault();
                    startEdit(it);
                  }
                }
              }}></textarea>
            <button type="submit" class="send" aria-label=${t("threads.send")} title=${t("threads.send")} disabled=${busy}><${Icon} name="send" /></button>
          </form>`
        : null
    }
  </aside>`;
}
