// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useLayoutEffect, useRef } from "../lib/preact.js";
import { dayLabel } from "../format.js";
import { latestCardByJob } from "../store.js";
import { ArtifactMessage } from "./artifact-message.js";
import { JobCard } from "./job-card.js";
import { DeletedBubble, MessageBubble } from "./message-bubble.js";
import { SystemEvent } from "./system-event.js";
import { UploadBubble } from "./upload-bubble.js";
import { ActionSummaryBar } from "./action-summary.js";
import { RenderDocView } from "./render-doc.js";
import { ChoiceButtons, SurfaceCards } from "./surface-cards.js";
import { useTimelinePaging } from "./timeline-paging.js";
import { receiptOf, SeenBy } from "./receipts.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {import('../types.js').TimelineItem} TimelineItem */
/** @typedef {import('../types.js').JobHead} JobHead */

/** @param {{ s: State, cid: string, jobs: JobHead[] }} props */
export function Timeline({ s, cid, jobs }) {
  const tl = s.timelines[cid];
  const items = tl?.items ?? [];
  const locals = s.locals[cid] ?? [];
  const latest = latestCardByJob(items);
  // Buttons the server recorded a click for (its action messages): shown as done, even after a reload.
  const acted = new Set(
    items
      .map((i) => /** @type {any} */ (i.message).action)
      .filter(Boolean)
      .map((a) => `${a.card_id}:${a.button_id}`),
  );
  const me = s.me?.entity_id;
  const admin = s.me?.roles?.includes("admin") ?? false;
  const conv = s.conversations.find((c) => c.conversation_id === cid);
  const group = (conv?.participant_entity_ids.length ?? 2) > 2;
  // "Seen by" goes under my latest message of a group.
  const lastMine = group
    ? [...items]
        .reverse()
        .find(
          (i) =>
            i.sender.entity_id === me &&
            !i.deleted &&
            i.message.kind === "text" &&
            !(/** @type {any} */ (i.message).action),
        )
    : undefined;
  const box = useRef(/** @type {HTMLDivElement | null} */ (null));
  const stick = useRef(true);
  const count = items.length + locals.length;

  // Follow new items when the reader is at the bottom; leave them alone when scrolled up.
  useLayoutEffect(() => {
    const el = box.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [count, cid]);
  useEffect(() => {
    stick.current = true;
  }, [cid]);
  const paging = useTimelinePaging({ box, stick, cid, items, loaded: !!tl?.loaded });

  /** @type {any[]} */
  const out = [];
  let lastDay = "";
  for (const it of items) {
    const day = dayLabel(it.ts);
    if (day !== lastDay) {
      out.push(html`<div key=${`d_${it.event_id}`} class="day"><span>${day}</span></div>`);
      lastDay = day;
    }
    if (it.event_id === paging.divider) {
      out.push(
        html`<div key="unread-divider" class="unread-divider" role="separator" aria-label=${t("timeline.new_messages")}><span>${t("timeline.new_messages")}</span></div>`,
      );
    }
    const found = paging.found === it.event_id;
    out.push(
      html`<div key=${it.event_id} class=${found ? "item item-found" : "item"} data-event-id=${it.event_id} data-message-id=${it.message.message_id} tabIndex="-1">${renderItem(it)}${
        it === lastMine ? html`<${SeenBy} s=${s} conv=${conv} cursor=${it.cursor} />` : null
      }</div>`,
    );
  }
  for (const l of locals) {
    if (l.kind === "file") {
      out.push(
        html`<div key=${l.local_id} class="item item-local" data-local-id=${l.local_id}><${UploadBubble} bubble=${l} /></div>`,
      );
      continue;
    }
    out.push(html`<div key=${l.local_id} class="item item-local" data-local-id=${l.local_id}>
      <${MessageBubble} text=${l.text} ts=${l.ts} mine=${true} status=${l.status === "waiting" ? "sending" : l.status} onRetry=${l.retry} action=${l.kind === "action"} /></div>`);
  }

  /** @param {TimelineItem} it */
  function renderItem(it) {
    const m = /** @type {any} */ (it.message);
    const mine = it.sender.entity_id === me;
    const sender = group || it.sender.actor_type === "agent" ? it.sender.display_name : undefined;
    if (it.deleted) return html`<${DeletedBubble} ts=${it.ts} mine=${mine} sender=${sender} />`;
    if (m.kind === "card" && m.card) {
      const job = s.jobs[m.card.job_id];
      // The server names the card that speaks for the job now and what I may do on it (the same
      // actions as the Job Drawer); every other card of the job is an earlier step and inert.
      const current = job?.actions_card_id
        ? job.actions_card_id === m.card.card_id
        : latest[m.card.job_id] === m.card.card_id;
      const live = current && (!job || job.state === m.card.state || m.card.card_type === "job.finished");
      const actions = live && Array.isArray(job?.available_actions) ? job.available_actions : undefined;
      return html`<div class="card-row"><${JobCard} card=${m.card} ts=${it.ts} live=${live} jobState=${job?.state} jobOpen=${job?.open} acted=${acted} actions=${actions} /></div>`;
    }
    if (m.action)
      return html`<${MessageBubble} text=${m.body_text ?? ""} ts=${it.ts} mine=${mine} sender=${mine ? undefined : it.sender.display_name} action=${true} />`;
    if (m.kind === "artifact" && m.artifact)
      return html`<${ArtifactMessage} artifact=${m.artifact} ts=${it.ts} mine=${mine} sender=${sender} caption=${m.body_text && m.body_text !== m.artifact.title ? m.body_text : undefined} />`;
    if (m.kind === "system" || it.sender.actor_type === "system")
      return html`<${SystemEvent} text=${m.body_text ?? ""} />`;
    if (m.action_summary || m.surfaces || m.render || m.choices) return agentReply(it, m, mine, sender);
    if (m.kind === "text" || typeof m.body_text === "string") {
      const mentionsYou =
        Array.isArray(m.mentions) &&
        m.mentions.some((/** @type {{ entity_id: string }} */ x) => x.entity_id === s.me?.entity_id);
      return html`<${MessageBubble} text=${m.body_text ?? ""} ts=${it.ts} mine=${mine} sender=${mine ? undefined : sender} action=${!!m.action}
        status=${mine ? receiptOf(s, conv, it.cursor) : undefined} links=${it.sender.actor_type === "human"} mentionsYou=${mentionsYou && !mine} it=${it} cid=${cid} me=${me} admin=${admin} mentioned=${mentionedNames(s, m.mentions)} />`;
    }
    return html`<${SystemEvent} text=${t("timeline.unknown_item")} />`;
  }

  /**
   * An agent's reply with structured parts: the rich render (else the text), surfaces, choices,
   * and the ActionSummary; an ActionSummary alone replaces its "Applied to" fallback text.
   * @param {TimelineItem} it @param {any} m @param {boolean} mine @param {string | undefined} sender
   */
  function agentReply(it, m, mine, sender) {
    const text = m.action_summary && !m.render ? null : m.body_text;
    return html`<div class="agent-reply">
      ${
        m.render
          ? html`<div class="msg msg-in"><div class="bubble">${sender ? html`<span class="sender">${sender}</span>` : null}<${RenderDocView} doc=${m.render} /></div></div>`
          : text
            ? html`<${MessageBubble} text=${text} ts=${it.ts} mine=${mine} sender=${mine ? undefined : sender} />`
            : null
      }
      ${m.surfaces?.length ? html`<${SurfaceCards} surfaces=${m.surfaces} cid=${cid} />` : null}
      ${m.choices?.length ? html`<${ChoiceButtons} choices=${m.choices} cid=${cid} />` : null}
      ${m.action_summary ? html`<${ActionSummaryBar} summary=${m.action_summary} cid=${cid} jobs=${jobs} />` : null}
    </div>`;
  }

  return html`<section class="timeline" ref=${box} aria-label=${t("timeline.messages")} tabIndex="0"
    onScroll=${(/** @type {any} */ e) => {
      const el = e.currentTarget;
      stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
      paging.onScroll(el);
    }}>
    <div class="timeline-inner">
      ${paging.top}
      ${!tl?.loaded && items.length === 0 ? html`<div class="loading">${t("timeline.loading")}</div>` : null}
      ${tl?.loaded && count === 0 ? html`<div class="empty-chat">${t("timeline.empty")}</div>` : null}
      ${out}
    </div>
  </section>`;
}

/** The display names of the people and agents a message mentions (highlighted in its bubble). @param {State} s @param {unknown} mentions */
function mentionedNames(s, mentions) {
  if (!Array.isArray(mentions)) return [];
  return mentions
    .map((/** @type {{ entity_id: string }} */ x) => s.entities[x.entity_id]?.display_name)
    .filter((n) => typeof n === "string");
}
