// @ts-check
import { dateTime } from "../format.js";
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { Icon } from "./icon.js";

/** @typedef {import('../types.js').FormalizeCard} FormalizeCard */

/** Goal, owner, inputs needed, expected outputs, constraints, ETA — in the seed's order. @param {{ card: FormalizeCard }} props */
export function FormalizeBody({ card }) {
  const job = card.job;
  const inputs = Array.isArray(job.inputs_needed) ? job.inputs_needed : [];
  const outputs = Array.isArray(job.expected_outputs) ? job.expected_outputs : [];
  const constraints = Array.isArray(job.constraints) ? job.constraints : [];
  return html`<div class="card-body">
    <div class="field"><span class="label">${t("formalize.goal")}</span><p class="goal">${job.goal}</p></div>
    ${
      inputs.length
        ? html`<div class="field"><span class="label">${t("formalize.inputs")}</span>
      <ul class="inputs">${inputs.map(
        (i) => html`<li key=${i.key} class=${`input-${i.status}`}>
        <span class="input-mark" aria-hidden="true">${i.status === "provided" ? "✓" : "○"}</span>
        <span class="input-label">${i.label}</span>
        ${i.value_preview ? html`<span class="input-preview">${i.value_preview}</span>` : null}
        <span class="input-status">${i.status === "provided" ? t("formalize.provided") : t("formalize.missing")}</span>
      </li>`,
      )}</ul></div>`
        : null
    }
    ${
      outputs.length
        ? html`<div class="field"><span class="label">${t("formalize.outputs")}</span>
      <ul class="bullets">${outputs.map((o, n) => html`<li key=${n}>${o.description}</li>`)}</ul></div>`
        : null
    }
    ${
      constraints.length
        ? html`<div class="field"><span class="label">${t("formalize.constraints")}</span>
      <div class="chips">${constraints.map((c, n) => html`<span key=${n} class="chip">${c}</span>`)}</div></div>`
        : null
    }
    ${
      job.sla_hint || job.due_at || (job.priority && job.priority !== "normal")
        ? html`<div class="field field-inline">
      ${job.sla_hint ? html`<span class="eta"><${Icon} name="clock" size=${13} /> ${job.sla_hint}</span>` : null}
      ${job.due_at ? html`<span class="eta">${t("formalize.due", { when: dateTime(job.due_at) })}</span>` : null}
      ${job.priority && job.priority !== "normal" ? html`<span class=${`prio prio-${job.priority}`}>${t("formalize.priority", { priority: job.priority })}</span>` : null}
    </div>`
        : null
    }
  </div>`;
}
