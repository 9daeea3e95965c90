// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useRef } from "../lib/preact.js";
import { openAt } from "../jump.js";
import { togglePin } from "../message-links.js";
import { clock } from "../format.js";
import { ModalFrame } from "./modal-frame.js";

/** @typedef {import('../types.js').TimelineItem} TimelineItem */

/** @param {TimelineItem} it */
function snippetOf(it) {
  const m = /** @type {any} */ (it.message);
  const text = String(m.body_text ?? m.artifact?.title ?? m.card?.title ?? "");
  return text.length > 140 ? `${text.slice(0, 139)}…` : text;
}

/**
 * The conversation's pinned messages, in the order they were pinned: each opens the chat at the
 * message, and any member may unpin it. The list follows every member's pins live.
 * @param {{ cid: string, items: TimelineItem[], onClose: () => void }} props
 */
export function PinnedPanel({ cid, items, onClose }) {
  const box = useRef(/** @type {HTMLDivElement | null} */ (null));
  // Unpinning takes its row (and the focused button) away when the change comes back on the
  // stream: focus then goes to the row now in its place, else the previous one, else the dialog's Close.
  const refocus = useRef(/** @type {number | null} */ (null));
  useEffect(() => {
    const at = refocus.current;
    const el = box.current;
    if (at === null || !el || el.contains(document.activeElement)) return;
    refocus.current = null;
    const rows = /** @type {HTMLElement[]} */ ([...el.querySelectorAll(".pin-open")]);
    const next =
      rows[Math.min(at, rows.length - 1)] ??
      /** @type {HTMLElement | null} */ (el.closest("dialog")?.querySelector(".modal-head button") ?? null);
    next?.focus();
  }, [items.length]);
  return html`<${ModalFrame} title=${t("pins.title")} onClose=${onClose}>
    <div class="pins-panel" ref=${box}>
      ${
        items.length
          ? html`<ul class="pins-list">
        ${items.map(
          (it) => html`<li key=${it.message.message_id} class="pin-row" data-message-id=${it.message.message_id}>
            <button type="button" class="pin-open" onClick=${() => {
              onClose();
              openAt(cid, it.event_id, it.cursor);
            }}>
              <span class="pin-who">${it.sender.display_name} · ${clock(it.ts)}</span>
              <span class="pin-text">${snippetOf(it)}</span>
            </button>
            <span class="pin-by">${it.pinned ? t("bubble.pinned_by", { name: it.pinned.by_name }) : null}</span>
            <button type="button" class="btn btn-small" aria-label=${t("pins.unpin_named", { text: snippetOf(it).slice(0, 40) })} onClick=${() => {
              refocus.current = items.indexOf(it);
              void togglePin(cid, it);
            }}>${t("bubble.unpin")}</button>
          </li>`,
        )}
      </ul>`
          : html`<p class="pins-empty">${t("pins.empty")}</p>`
      }
    </div>
  </${ModalFrame}>`;
}
