// @ts-check
import { t } from "../i18n.js";
import { html, useLayoutEffect, useRef } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { trapTab } from "../focus.js";

/**
 * A centred dialog (bottom sheet on narrow screens), built on the native <dialog> opened with
 * showModal(): the page behind it is inert (Tab never reaches it, screen readers do not read it),
 * Escape closes it, and so does a click on the backdrop. Focus goes into the dialog on open and
 * back to whatever opened it on close.
 * @param {{ title: string, onClose: () => void, children?: any, wide?: boolean }} props
 */
export function ModalFrame({ title, onClose, children, wide }) {
  const ref = useRef(/** @type {HTMLDialogElement | null} */ (null));
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  // A layout effect, so the dialog is open before the content's own effects move focus into it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = /** @type {HTMLElement | null} */ (document.activeElement);
    /** @param {Event} e */
    const onCancel = (e) => {
      e.preventDefault();
      closeRef.current();
    };
    const onNativeClose = () => closeRef.current();
    dialog.addEventListener("cancel", onCancel);
    dialog.addEventListener("close", onNativeClose);
    if (!dialog.open) dialog.showModal();
    const untrap = trapTab(dialog);
    return () => {
      untrap();
      dialog.removeEventListener("cancel", onCancel);
      dialog.removeEventListener("close", onNativeClose);
      if (dialog.open) dialog.close();
      // Back to the opener, if it is still on the page (a card re-rendered keeps its buttons).
      if (opener?.isConnected && opener !== document.body) opener.focus();
    };
  }, []);
  const headingId = useRef(`modal-${Math.random().toString(36).slice(2, 9)}`).current;
  return html`<dialog class="backdrop" ref=${ref} aria-labelledby=${headingId}
    onClick=${(/** @type {MouseEvent} */ e) => e.target === e.currentTarget && onClose()}>
    <div class=${`modal${wide ? " modal-wide" : ""}`}>
      <header class="modal-head"><h2 id=${headingId}>${title}</h2>
        <button type="button" class="icon-btn" aria-label=${t("common.close")} onClick=${onClose}><${Icon} name="x" /></button></header>
      ${children}
    </div>
  </dialog>`;
}
