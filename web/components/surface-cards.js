// @ts-check
import { dateFormat, t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { sendText } from "../actions.js";
import { confirmDialog } from "../button-flow.js";

/** @typedef {import('../types.js').Surface} Surface */

/**
 * Surfaces v0 as compact cards. A button never acts by itself: it sends its `[op …]` token as
 * the person's message, through the same checks as anything typed or clicked. A button marked
 * `confirm` asks first, in the same dialog as a card button's confirm; Go back sends nothing.
 * @param {{ surfaces: Surface[], cid: string }} props
 */
export function SurfaceCards({ surfaces, cid }) {
  /** @param {{ label: string, opToken: string, confirm?: boolean | null }} b */
  const run = async (b) => {
    if (
      b.confirm &&
      !(await confirmDialog({
        title: t("surface.confirm_title", { label: b.label }),
        body: t("surface.confirm_body"),
        okLabel: b.label,
      }))
    )
      return;
    sendText(cid, b.opToken);
  };
  /** @param {{ label: string, opToken: string, confirm?: boolean | null }} b @param {string} key */
  const btn = (b, key) =>
    html`<button key=${key} type="button" class="btn btn-small btn-secondary" data-op=${b.opToken} data-confirm=${b.confirm ? "true" : null} onClick=${() => void run(b)}>${b.label}</button>`;
  return html`<div class="surfaces">${surfaces.map(
    (s) => html`<section key=${s.surface_id} class="surface" aria-label=${s.title} data-kind=${s.kind}>
    <h4>${s.title}</h4>
    ${
      s.kind === "what_next_v1"
        ? html`<p class="surface-headline">${s.payload.headline}</p>
      ${s.payload.body ? html`<p class="muted small">${s.payload.body}</p>` : null}
      <div class="card-buttons">${s.payload.primaryAction ? btn(s.payload.primaryAction, "p") : null}${(s.payload.secondaryActions ?? []).map((a, i) => btn(a, `s${i}`))}</div>`
        : null
    }
    ${
      s.kind === "today_schedule_v1"
        ? html`<ul class="surface-list">${s.payload.blocks.map((b, i) => html`<li key=${i}>${dateFormat({ hour: "2-digit", minute: "2-digit" }).formatRange(new Date(b.start), new Date(b.end))} ${b.title}</li>`)}</ul>
      <div class="card-buttons">${(s.payload.suggestions ?? []).map((x, i) => btn({ label: x.previewChange, opToken: x.acceptOp }, `x${i}`))}</div>`
        : null
    }
    ${
      s.kind === "priority_list_v1"
        ? html`<ol class="surface-list">${s.payload.items.map(
            (
              it,
              i,
            ) => html`<li key=${i}>${it.label}${it.reason ? html` <span class="muted small">— ${it.reason}</span>` : null}
      ${(it.actions ?? []).map((a, k) => btn(a, `a${k}`))}</li>`,
          )}</ol>`
        : null
    }
    ${
      s.kind === "triage_table_v1"
        ? s.payload.groups.map(
            (g, gi) => html`<div key=${gi} class="surface-group"><p>${g.summary}</p>
      <div class="card-buttons">${g.approveOp ? btn({ label: t("surface.approve_all"), opToken: g.approveOp }, "ga") : null}${g.declineOp ? btn({ label: t("surface.decline_all"), opToken: g.declineOp }, "gd") : null}</div>
      <ul class="surface-list">${g.items.map((it, ii) => html`<li key=${ii}>${it.preview} ${it.approveOp ? btn({ label: t("surface.approve"), opToken: it.approveOp }, "a") : null}${it.declineOp ? btn({ label: t("surface.decline"), opToken: it.declineOp }, "d") : null}</li>`)}</ul></div>`,
          )
        : null
    }
  </section>`,
  )}</div>`;
}

/** A clarifying question's choices: each sends its token. @param {{ choices: Array<{ label: string, token: string }>, cid: string }} props */
export function ChoiceButtons({ choices, cid }) {
  return html`<div class="card-buttons choices">${choices.map((c, i) => html`<button key=${i} type="button" class="btn btn-small btn-secondary" onClick=${() => sendText(cid, c.token)}>${c.label}</button>`)}</div>`;
}
