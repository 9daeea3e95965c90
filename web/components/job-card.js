// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { clock } from "../format.js";
import { navigate } from "../router.js";
import { CardButtons } from "./card-buttons.js";
import { CardPeopleActions } from "./card-people.js";
import { FinishedBody } from "./finished-body.js";
import { FormalizeBody } from "./formalize-body.js";
import { JobIdChip } from "./job-id-chip.js";
import { StatePill } from "./state-pill.js";
import { TrackingBody } from "./tracking-body.js";

/** @typedef {import('../types.js').JobCard} JobCard */

/** A card type in words (card.kind.*); a type this version does not know is a "Card". @param {unknown} type */
const kindOf = (type) =>
  type === "job.formalize" || type === "job.tracking" || type === "job.finished"
    ? t(`card.kind.${type}`)
    : t("card.kind.other");

/**
 * A job card: the seed's top row (title + state pill), the short job id, owner and time, the
 * type's body, and the button row. Unknown card types or fields render title, summary and
 * buttons only. Tapping the card (not a control in it) opens the Job Drawer. A live card shows
 * `actions` when the server said what this person may do now (the Job Drawer's buttons).
 * @param {{ card: JobCard, ts: string, live: boolean, jobState?: string, jobOpen?: boolean, acted?: Set<string>, actions?: import('../types.js').CardButton[] }} props
 */
export function JobCard({ card, ts, live, jobState, jobOpen, acted, actions }) {
  const c = /** @type {any} */ (card);
  const body =
    c.card_type === "job.formalize" && c.job
      ? html`<${FormalizeBody} card=${c} />`
      : c.card_type === "job.tracking" && c.progress
        ? html`<${TrackingBody} card=${c} />`
        : c.card_type === "job.finished" && c.outcome
          ? html`<${FinishedBody} card=${c} />`
          : null;
  const open = () => navigate(`/jobs/${encodeURIComponent(card.job_id)}`);
  const owner = c.owner?.display_name
    ? t(c.owner.actor_type === "agent" ? "card.owner_agent" : "card.owner", { name: c.owner.display_name })
    : null;
  const buttons = live && actions ? actions : Array.isArray(c.buttons) ? c.buttons : [];
  return html`<article class=${`card card-${String(c.card_type ?? "unknown").replace(".", "-")}${live ? "" : " card-stale"}`}
      data-card-id=${card.card_id} data-card-type=${c.card_type} data-job-id=${card.job_id} tabIndex="-1"
      aria-label=${t("card.label", { kind: kindOf(c.card_type), title: c.title ?? "" })}
      onClick=${(/** @type {MouseEvent} */ e) => {
        const target = /** @type {HTMLElement} */ (e.target);
        if (!target.closest("button, a, input, summary")) open();
      }}>
    <header class="card-head">
      <span class="card-kind">${kindOf(c.card_type)}${live ? null : html`<span class="card-stale-label">${t("card.earlier_step")}</span>`}</span>
      <div class="card-title-row">
        <h3 class="card-title">${c.title ?? t("card.untitled")}</h3>
        ${typeof c.state === "string" ? html`<${StatePill} state=${c.state} />` : null}
      </div>
      <div class="card-meta">
        <${JobIdChip} jobId=${card.job_id} />
        ${owner ? html`<span>${owner}</span>` : null}
        <span>${t(c.card_type === "job.formalize" ? "card.created" : "card.updated", { time: clock(c.created_at ?? ts) })}</span>
      </div>
    </header>
    ${c.summary ? html`<p class="card-summary">${c.summary}</p>` : null}
    ${body}
    ${buttons.length ? html`<${CardButtons} card=${c} buttons=${buttons} live=${live} jobState=${jobState} acted=${acted} />` : null}
    ${live ? html`<${CardPeopleActions} jobId=${card.job_id} title=${c.title ?? ""} ownerId=${c.owner?.entity_id} jobOpen=${jobOpen} />` : null}
    <button type="button" class="card-details" onClick=${open}>${t("card.details")}</button>
  </article>`;
}
