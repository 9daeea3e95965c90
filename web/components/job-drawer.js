// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { copyText } from "../actions.js";
import { clock, dateTime, shortId } from "../format.js";
import { clickButton } from "../button-flow.js";
import { trapTab } from "../focus.js";
import { getState, latestCardByJob } from "../store.js";
import { ArtifactList } from "./artifact-list.js";
import { AssistSection, ModelProposals } from "./assist-section.js";
import { DrawerTimeline } from "./drawer-timeline.js";
import { JobIdChip } from "./job-id-chip.js";
import { JobPeopleSection } from "./job-people.js";
import { StatePill } from "./state-pill.js";

/** @typedef {import('../store.js').State} State */

const NARROW = "(max-width: 760px)";

/** Whether the screen is narrow enough for the bottom sheet, kept current. */
function useNarrow() {
  const [narrow, setNarrow] = useState(() => matchMedia(NARROW).matches);
  useEffect(() => {
    const mq = matchMedia(NARROW);
    const on = () => setNarrow(mq.matches);
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, []);
  return narrow;
}
/** @typedef {import('../types.js').JobDrawer} JobDrawer */

/** The card the drawer's actions answer (the latest one), for the gateway's provenance check. @param {State} s @param {JobDrawer} d */
function latestCardId(s, d) {
  const given = /** @type {any} */ (d).actions_card_id;
  if (typeof given === "string") return given;
  const inChat = latestCardByJob(s.timelines[d.conversation_id]?.items ?? [])[d.job_id];
  if (inChat) return inChat;
  const cards = d.timeline.filter((t) => t.kind === "card").sort((a, b) => a.ts.localeCompare(b.ts));
  return /** @type {any} */ (cards[cards.length - 1])?.card_id;
}

/**
 * The Job Drawer: side panel on wide screens, bottom sheet on narrow ones. Header, summary,
 * actions from available_actions, timeline, artifacts and the raw event trail.
 * @param {{ s: State, onClose: () => void }} props
 */
export function JobDrawer({ s, onClose }) {
  const dr = s.drawer;
  const panel = useRef(/** @type {HTMLElement | null} */ (null));
  const narrow = useNarrow();
  // Opened: remember the opener; closed: focus goes back to it, or to the job's card in the chat.
  useEffect(() => {
    const opener = /** @type {HTMLElement | null} */ (document.activeElement);
    const jobId = dr?.job_id ?? "";
    // After the close has re-rendered (and the phone's inert background is live again).
    return () =>
      void setTimeout(() => {
        const cards = document.querySelectorAll(`.timeline article[data-job-id="${CSS.escape(jobId)}"]`);
        const card = /** @type {HTMLElement | undefined} */ (cards[cards.length - 1]);
        const back = opener?.isConnected && opener !== document.body && opener.offsetParent !== null ? opener : card;
        back?.focus();
      }, 0);
  }, []);
  useEffect(() => {
    panel.current?.focus();
    /** @param {KeyboardEvent} e */
    const onKey = (e) => e.key === "Escape" && !getState().dialog && onClose();
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [dr?.job_id]);
  // On phones the drawer is a bottom sheet over the chat: a real modal, with everything behind inert.
  useEffect(() => {
    const el = panel.current;
    if (!el || !narrow) return;
    const behind = [...(el.parentElement?.children ?? [])].filter(
      (c) => c !== el && !c.classList.contains("drawer-scrim"),
    );
    for (const b of behind) b.setAttribute("inert", "");
    const untrap = trapTab(el);
    return () => {
      untrap();
      for (const b of behind) b.removeAttribute("inert");
    };
  }, [narrow]);
  if (!dr) return null;
  const d = dr.data;
  const link = `${location.origin}/jobs/${encodeURIComponent(dr.job_id)}`;
  const cardId = d ? latestCardId(s, d) : undefined;
  const raw = d?.raw_events ?? [];
  return html`<div class="drawer-scrim" onClick=${onClose}></div>
  <aside class="drawer" ref=${panel} tabIndex="-1" role="dialog" aria-modal=${narrow ? "true" : "false"} aria-label=${t("drawer.label")}>
    <div class="sheet-handle" aria-hidden="true"></div>
    <header class="drawer-head">
      <div class="drawer-title-row">
        <h2>${d?.title ?? t("drawer.job")}</h2>
        ${d ? html`<${StatePill} state=${d.state} />` : null}
        <button type="button" class="icon-btn" aria-label=${t("drawer.close")} onClick=${onClose}><${Icon} name="x" /></button>
      </div>
      <div class="drawer-meta">
        ${d ? html`<span>${t(d.owner.actor_type === "agent" ? "card.owner_agent" : "card.owner", { name: d.owner.display_name })}</span>` : null}
        <${JobIdChip} jobId=${dr.job_id} />
        ${d ? html`<span>${t("card.updated", { time: clock(d.updated_at) })}</span>` : null}
        <button type="button" class="btn btn-small btn-ghost" onClick=${() => void copyText(link)}><${Icon} name="link" size=${14} /> ${t("common.copy_link")}</button>
      </div>
    </header>
    <div class="drawer-body">
      ${dr.error ? html`<p class="form-error" role="alert">${t("drawer.load_error", { reason: dr.error })}</p>` : null}
      ${!d && !dr.error ? html`<div class="loading">${t("drawer.loading")}</div>` : null}
      ${
        d
          ? html`
        <section class="drawer-section" aria-label=${t("drawer.summary")}>
          <h3>${t("drawer.summary")}</h3>
          <p class="goal">${d.goal}</p>
          ${d.outcome ? html`<p class="outcome" data-result=${d.outcome.result}>${d.outcome.summary}</p>` : null}
          ${d.constraints?.length ? html`<div class="chips">${d.constraints.map((c, i) => html`<span key=${i} class="chip">${c}</span>`)}</div>` : null}
          <p class="muted small">
            ${[
              d.due_at ? t("drawer.due", { when: dateTime(d.due_at) }) : "",
              d.priority && d.priority !== "normal" ? t("drawer.priority", { priority: d.priority }) : "",
              t("drawer.created", { when: dateTime(d.created_at) }),
            ]
              .filter(Boolean)
              .join(" · ")}
            ${d.parent_job_id ? ` · ${t("drawer.follows_up", { job: shortId(d.parent_job_id) })}` : null}
          </p>
        </section>
        ${
          d.available_actions.length && cardId
            ? html`<section class="drawer-section" aria-label=${t("drawer.actions")}>
          <h3>${t("drawer.actions")}</h3>
          <div class="card-buttons">${d.available_actions.map((b) => {
            const st = s.buttons[`${cardId}:${b.button_id}`];
            return html`<button key=${b.button_id} type="button" class=${`btn btn-${b.style ?? "secondary"}`} data-action=${b.action.type}
              aria-disabled=${st?.status === "pending" ? "true" : undefined}
              onClick=${() => st?.status !== "pending" && void clickButton({ card_id: cardId, job_id: d.job_id, conversation_id: d.conversation_id, title: d.title }, b)}>${b.label}</button>`;
          })}</div>
        </section>`
            : null
        }
        <${JobPeopleSection} s=${s} job=${d} />
        <${AssistSection} jobId=${d.job_id} />
        <${ModelProposals} proposals=${d.llm?.proposals ?? []} />
        <section class="drawer-section" aria-label=${t("drawer.timeline")}>
          <h3>${t("drawer.timeline")}</h3>
          <${DrawerTimeline} items=${d.timeline} />
        </section>
        ${
          d.artifacts.length
            ? html`<section class="drawer-section" aria-label=${t("drawer.artifacts")}>
          <h3>${t("drawer.artifacts")}</h3><${ArtifactList} artifacts=${d.artifacts} />
        </section>`
            : null
        }
        ${
          raw.length
            ? html`<section class="drawer-section" aria-label=${t("drawer.audit")}>
          <details class="audit"><summary><h3>${t("drawer.audit_trail")} <span class="muted">${t("drawer.ledger_events", { count: raw.length })}</span></h3></summary>
            <ol class="raw-events">${raw.map((ev) => {
              const e = /** @type {any} */ (ev);
              return html`<li key=${e.event_id} id=${e.event_id}><details><summary>
                <code>${shortId(String(e.event_id ?? ""))}</code> <span class="raw-type">${e.event_type}</span>
                <span class="muted">${t("drawer.trace", { time: clock(e.ts), trace: shortId(String(e.trace_id ?? "—")) })}</span></summary>
                <pre class="json">${JSON.stringify(e, null, 2)}</pre></details></li>`;
            })}</ol>
          </details>
          <p class="receipt-line"><a class="btn btn-secondary" href=${`/v1/jobs/${encodeURIComponent(d.job_id)}/receipt`} download=${`receipt-${d.job_id}.json`}>${t("drawer.receipt")}</a>
            <span class="muted">${t("drawer.receipt_explained")}</span></p>
        </section>`
            : null
        }`
          : null
      }
    </div>
  </aside>`;
}
