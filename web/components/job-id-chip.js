// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { copyText } from "../actions.js";
import { shortId } from "../format.js";

/**
 * The short job id; a tap copies the full id. Its name holds the short id it shows (a person who
 * says what they see can press it); the full id is its description.
 * @param {{ jobId: string }} props
 */
export function JobIdChip({ jobId }) {
  return html`<button type="button" class="job-id" title=${t("job_id.copy", { id: jobId })} aria-label=${t("job_id.copy", { id: shortId(jobId) })}
    onClick=${(/** @type {Event} */ e) => {
      e.stopPropagation();
      void copyText(jobId);
    }}>${shortId(jobId)}</button>`;
}
