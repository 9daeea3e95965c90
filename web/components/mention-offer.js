// @ts-check
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { listFormat, t } from "../i18n.js";

/** @typedef {import('../mentions.js').Candidate} Candidate */

/**
 * Shown instead of sending when the message mentions agents who are not in the conversation.
 * Someone who may add members is offered Add (the agents join, then the message goes, so they
 * answer it) or Not now (the message goes without them). Someone who may not is told, and sends
 * anyway or keeps editing. Escape keeps editing; nothing is lost either way. Focus starts on the
 * first button and goes back to the text box when the offer closes.
 * @param {{ agents: Candidate[], mayAdd: boolean, onAdd: () => Promise<void>, onSend: () => void, onCancel: () => void }} props
 */
export function MentionOffer({ agents, mayAdd, onAdd, onSend, onCancel }) {
  const first = useRef(/** @type {HTMLButtonElement | null} */ (null));
  const [busy, setBusy] = useState(false);
  useEffect(() => first.current?.focus(), []);
  const names = listFormat({ type: "conjunction" }).format(agents.map((a) => a.name));
  const values = { names, count: agents.length };
  const add = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await onAdd();
    } finally {
      setBusy(false);
    }
  };
  return html`<div class="mention-offer" role="group" aria-labelledby="mention-offer-text"
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key !== "Escape") return;
        e.preventDefault();
        e.stopPropagation();
        onCancel();
      }}>
    <p id="mention-offer-text" class="mention-offer-text" role="status">${t(mayAdd ? "mentions.offer.addIt" : "mentions.offer.notIn", values)}</p>
    <div class="mention-offer-buttons">
      ${
        mayAdd
          ? html`<button ref=${first} type="button" class="btn btn-primary" aria-disabled=${busy ? "true" : undefined} onClick=${add}>${t("mentions.offer.add")}</button>
        <button type="button" class="btn" onClick=${onSend}>${t("mentions.offer.notNow")}</button>`
          : html`<button ref=${first} type="button" class="btn" onClick=${onSend}>${t("mentions.offer.sendAnyway")}</button>`
      }
      <button type="button" class="btn" onClick=${onCancel}>${t("mentions.offer.keepEditing")}</button>
    </div>
  </div>`;
}
