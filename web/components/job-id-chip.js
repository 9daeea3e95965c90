// @ts-check
import { html } from "../lib/preact.js";
import { copyText } from "../actions.js";
import { shortId } from "../format.js";

/** The short job id; a tap copies the full id. @param {{ jobId: string }} props */
export function JobIdChip({ jobId }) {
  return html`<button type="button" class="job-id" title=${`Copy job id ${jobId}`} aria-label=${`Copy job id ${jobId}`}
    onClick=${(/** @type {Event} */ e) => {
      e.stopPropagation();
      void copyText(jobId);
    }}>${shortId(jobId)}</button>`;
}
