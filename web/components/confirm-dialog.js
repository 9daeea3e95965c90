// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useRef } from "../lib/preact.js";
import { setState } from "../store.js";
import { ModalFrame } from "./modal-frame.js";

/** @typedef {Extract<import('../store.js').Dialog, { type: 'confirm' }>} ConfirmDialogState */

/** @param {{ d: ConfirmDialogState }} props */
export function ConfirmDialog({ d }) {
  const ok = useRef(/** @type {HTMLButtonElement | null} */ (null));
  useEffect(() => ok.current?.focus(), []);
  /** @param {boolean} v */
  const done = (v) => {
    setState({ dialog: null });
    d.resolve(v);
  };
  return html`<${ModalFrame} title=${d.title} onClose=${() => done(false)}>
    ${d.body ? html`<p class="modal-body">${d.body}</p>` : null}
    <div class="modal-actions">
      <button type="button" class="btn btn-ghost" onClick=${() => done(false)}>${t("common.go_back")}</button>
      <button type="button" ref=${ok} class=${`btn ${d.danger ? "btn-danger" : "btn-primary"}`} onClick=${() => done(true)}>${d.okLabel ?? t("common.ok")}</button>
    </div>
  <//>`;
}
