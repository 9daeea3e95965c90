// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { bytes } from "../format.js";
import { unstage } from "../uploads.js";

/** @typedef {import('../uploads.js').Staged} Staged */

/**
 * The files about to be sent, above the composer: a preview for pictures, the name and size,
 * and a remove button each. What is typed in the composer goes with them as their caption.
 * @param {{ cid: string, files: Staged[] }} props
 */
export function StagedFiles({ cid, files }) {
  if (!files.length) return null;
  return html`<ul class="staged-files" aria-label=${t("upload.files")}>
    ${files.map(
      (s) => html`<li key=${s.id} class="staged-file">
      ${s.preview ? html`<img class="staged-thumb" src=${s.preview} alt="" />` : html`<span class="staged-thumb staged-icon" aria-hidden="true">📎</span>`}
      <span class="staged-name">${s.file.name}<span class="muted small"> · ${bytes(s.file.size)}</span></span>
      <button type="button" class="chip-x" aria-label=${t("common.remove_named", { name: s.file.name })} onClick=${() => unstage(cid, s.id)}>×</button>
    </li>`,
    )}
  </ul>`;
}
