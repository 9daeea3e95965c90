// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { ArtifactList } from "./artifact-list.js";

/** @typedef {import('../types.js').FinishedCard} FinishedCard */

/** Outcome summary, artifacts (open / download), next actions. @param {{ card: FinishedCard }} props */
export function FinishedBody({ card }) {
  const o = card.outcome;
  const artifacts = Array.isArray(card.artifacts) ? card.artifacts : [];
  const next = Array.isArray(card.next_actions) ? card.next_actions : [];
  return html`<div class="card-body">
    <p class=${`outcome outcome-${o.result}`}>${o.summary}</p>
    ${o.failure_reason ? html`<p class="failure">${t("finished.why", { reason: o.failure_reason })}</p>` : null}
    ${artifacts.length ? html`<${ArtifactList} artifacts=${artifacts} />` : null}
    ${
      next.length
        ? html`<div class="field"><span class="label">${t("finished.next")}</span>
      <ul class="bullets">${next.map((n, i) => html`<li key=${i}>${n.label}</li>`)}</ul></div>`
        : null
    }
  </div>`;
}
