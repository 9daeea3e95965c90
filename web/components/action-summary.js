// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { changeTarget } from "../thread-actions.js";

/** @typedef {import('../types.js').ActionSummary} ActionSummary */

/**
 * Under an agent's reply that acted on a job: which job it hit, "assumed" when no reference of
 * the person named it, and Change (pick another of this conversation's jobs; the next message
 * uses it).
 * @param {{ summary: ActionSummary, cid: string, jobs: Array<{ job_id: string, title?: string }> }} props
 */
export function ActionSummaryBar({ summary, cid, jobs }) {
  const [open, setOpen] = useState(false);
  const others = jobs.filter((j) => j.job_id !== summary.job_id);
  return html`<div class="action-summary" data-testid="action-summary">
    <span>${t("summary.applied_to")} <strong>${summary.job_title}</strong></span>
    ${summary.assumed ? html`<span class="badge-assumed" title=${t("summary.assumed_title")}>${t("summary.assumed")}</span>` : null}
    ${others.length ? html`<button type="button" class="link-btn" aria-expanded=${open} onClick=${() => setOpen(!open)}>${t("summary.change")}</button>` : null}
    ${
      open
        ? html`<ul class="picker-list" role="listbox" aria-label=${t("summary.pick")}>
      ${others.map(
        (j) =>
          html`<li key=${j.job_id}><button type="button" role="option" onClick=${() => {
            setOpen(false);
            void changeTarget(cid, j.job_id);
          }}>${j.title ?? j.job_id}</button></li>`,
      )}
    </ul>`
        : null
    }
  </div>`;
}
