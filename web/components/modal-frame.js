// @ts-check
import { html, useEffect } from "../lib/preact.js";
import { Icon } from "./icon.js";

/**
 * A centred dialog (bottom sheet on narrow screens). Escape or the backdrop closes it.
 * @param {{ title: string, onClose: () => void, children?: any, wide?: boolean }} props
 */
export function ModalFrame({ title, onClose, children, wide }) {
  useEffect(() => {
    /** @param {KeyboardEvent} e */
    const onKey = (e) => e.key === "Escape" && onClose();
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [onClose]);
  return html`<div class="backdrop" onClick=${(/** @type {MouseEvent} */ e) => e.target === e.currentTarget && onClose()}>
    <div class=${`modal${wide ? " modal-wide" : ""}`} role="dialog" aria-modal="true" aria-label=${title}>
      <header class="modal-head"><h2>${title}</h2>
        <button type="button" class="icon-btn" aria-label="Close" onClick=${onClose}><${Icon} name="x" /></button></header>
      ${children}
    </div>
  </div>`;
}
