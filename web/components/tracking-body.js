// @ts-check
import { listFormat, t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { ArtifactList } from "./artifact-list.js";

/** @typedef {import('../types.js').TrackingCard} TrackingCard */

const STEP_ICON = /** @type {Record<string, string>} */ ({ done: "✓", doing: "◐", blocked: "!", todo: "○" });
const MAX_STEPS = 5;

/** Status line, steps (5, then collapsed), blockers, waiting on, artifacts preview. @param {{ card: TrackingCard }} props */
export function TrackingBody({ card }) {
  const p = card.progress;
  const [all, setAll] = useState(false);
  const steps = Array.isArray(p.steps) ? p.steps : [];
  const shown = all ? steps : steps.slice(0, MAX_STEPS);
  const blockers = Array.isArray(p.blockers) ? p.blockers : [];
  const waiting = Array.isArray(p.waiting_on) ? p.waiting_on : [];
  return html`<div class="card-body">
    <p class="status-line">${p.status_line}</p>
    ${
      typeof p.percent === "number"
        ? html`<div class="progress" role="progressbar" aria-label=${t("tracking.progress")} aria-valuenow=${p.percent} aria-valuemin="0" aria-valuemax="100">
      <span style=${{ width: `${Math.max(0, Math.min(100, p.percent))}%` }}></span></div>`
        : null
    }
    ${
      steps.length
        ? html`<ol class="steps">
      ${shown.map((st) => html`<li key=${st.key} class=${`step step-${st.state}`}><span class="step-icon" aria-hidden="true">${STEP_ICON[st.state] ?? "○"}</span>${st.label}</li>`)}
      ${
        steps.length > MAX_STEPS
          ? html`<li class="step-more"><button type="button" class="linkish" onClick=${() => setAll(!all)}>
        ${all ? t("tracking.show_fewer") : t("tracking.show_more", { count: steps.length - MAX_STEPS })}</button></li>`
          : null
      }
    </ol>`
        : null
    }
    ${
      blockers.length
        ? html`<div class="blockers"><span class="label">${t("tracking.blockers")}</span>
      <ul>${blockers.map((b, n) => html`<li key=${n}>${b}</li>`)}</ul></div>`
        : null
    }
    ${waiting.length && card.state === "waiting_input" ? html`<p class="waiting-on">${t("tracking.waiting_on", { names: listFormat().format(waiting.map((w) => w.display_name)) })}</p>` : null}
    ${Array.isArray(card.artifacts_preview) && card.artifacts_preview.length ? html`<${ArtifactList} artifacts=${card.artifacts_preview} />` : null}
  </div>`;
}
