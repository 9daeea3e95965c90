// @ts-check
import { t } from "../i18n.js";
import { Component, html, useEffect, useLayoutEffect, useMemo, useRef, useState } from "../lib/preact.js";
import { elementScroll, observeElementOffset, observeElementRect, VirtualizerClass } from "../lib/virtual.js";
import { dayLabel, localDay } from "../format.js";
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
/** @typedef {import('../types.js').LocalBubble} LocalBubble */

/**
 * One row of the windowed timeline: a day divider, the unread divider, an item or one of my
 * bubbles still on its way.
 * @typedef {{ key: string, kind: 'day', day: string } | { key: string, kind: 'unread' }
 *   | { key: string, kind: 'item', it: TimelineItem } | { key: string, kind: 'local', l: LocalBubble }} Row
 */

/**
 * A part of the timeline drawn again only when one of its `deps` changed (each compared by
 * identity): a reaction, a receipt or a presence tick redraws the row it concerns, not the rest.
 * @extends {Component<{ deps: unknown[], draw: () => any }>}
 */
class Pure extends Component {
  /** @param {{ deps: unknown[] }} next */
  shouldComponentUpdate(next) {
    const a = this.props.deps;
    const b = next.deps;
    return a.length !== b.length || a.some((x, i) => x !== b[i]);
  }
  render() {
    return this.props.draw();
  }
}

/** Rows drawn beyond the viewport, above and below (keyboard and screen-reader reading room). */
const OVERSCAN = 8;

/** Each item's local calendar day, worked out once (a long chat's rows are rebuilt on every new message). */
const days = new WeakMap();
/** @param {TimelineItem} it */
function dayOf(it) {
  let d = days.get(it);
  if (d === undefined) days.set(it, (d = localDay(it.ts)));
  return d;
}

/** Guesses already made, per item: the virtualizer asks again for every row not yet drawn whenever the count changes. */
const guessed = new WeakMap();

/** A first guess at a row's height (px) before it is drawn and measured. @param {Row | undefined} r */
function estimate(r) {
  if (!r) return 60;
  if (r.kind === "day") return 44;
  if (r.kind === "unread") return 40;
  const m = /** @type {any} */ (r.kind === "item" ? r.it.message : r.l);
  if (!m) return 60;
  let px = guessed.get(m);
  if (px === undefined) {
    const text = typeof m.body_text === "string" ? m.body_text : typeof m.text === "string" ? m.text : "";
    px = m.card ? 320 : 58 + 20 * Math.floor(text.length / 70);
    guessed.set(m, px);
  }
  return px;
}

/** The rows' gap in .timeline-inner (px): each row's slot is its margin box and one gap. */
const GAP = 3;

/** A drawn row's slot: its height, its margins (they never collapse in a flex column) and the gap. @param {Element} el */
function measureRow(el) {
  const cs = getComputedStyle(el);
  return (
    el.getBoundingClientRect().height +
    (Number.parseFloat(cs.marginTop) || 0) +
    (Number.parseFloat(cs.marginBottom) || 0) +
    GAP
  );
}

/**
 * A virtualizer over a scroll box (the Preact binding of @tanstack/virtual-core): only the rows
 * near the viewport are drawn and each drawn row is measured. While `follow` holds (the view is
 * at the end), a row above the view that turns out taller or shorter than guessed moves the
 * scroll position with it; otherwise the timeline keeps the reader's place itself.
 * @param {{ box: { current: HTMLElement | null }, rows: Row[], margin: number, follow: { current: boolean } }} o
 */
function useVirtualRows({ box, rows, margin, follow }) {
  const [, redraw] = useState(0);
  // New only when the rows are: the virtualizer works out every row's place again whenever its
  // key function changes, which a receipt or a presence tick must not cost on a long chat.
  const byRow = useMemo(
    () => ({
      estimateSize: (/** @type {number} */ i) => estimate(rows[i]),
      getItemKey: (/** @type {number} */ i) => rows[i]?.key ?? i,
    }),
    [rows],
  );
  /** @type {import('../lib/virtual.js').VirtualizerOptions} */
  const options = {
    count: rows.length,
    getScrollElement: () => box.current,
    ...byRow,
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    overscan: OVERSCAN,
    scrollMargin: margin,
    measureElement: measureRow,
    onChange: () => redraw((n) => n + 1),
  };
  const ref = useRef(/** @type {import('../lib/virtual.js').Virtualizer | null} */ (null));
  if (!ref.current) {
    ref.current = new VirtualizerClass(options);
    // Only while the view follows the end: otherwise the timeline keeps the reader's place itself.
    ref.current.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, inst) =>
      follow.current && item.end <= (inst.scrollOffset ?? 0);
  }
  const v = ref.current;
  v.setOptions(options);
  useLayoutEffect(() => v._didMount(), []);
  useLayoutEffect(() => {
    v._willUpdate();
  });
  return v;
}

/** @param {{ s: State, cid: string, jobs: JobHead[] }} props */
export function Timeline({ s, cid, jobs }) {
  const tl = s.timelines[cid];
  const items = tl?.items ?? [];
  const locals = s.locals[cid] ?? [];
  const me = s.me?.entity_id;
  const admin = s.me?.roles?.includes("admin") ?? false;
  const conv = s.conversations.find((c) => c.conversation_id === cid);
  const group = (conv?.participant_entity_ids.length ?? 2) > 2;
  const box = useRef(/** @type {HTMLDivElement | null} */ (null));
  const list = useRef(/** @type {HTMLDivElement | null} */ (null));
  const stick = useRef(true);
  const count = items.length + locals.length;
  const [margin, setMargin] = useState(0);

  // The rows: rebuilt only when the items, my pending bubbles or the divider change.
  const rowsRef = useRef(/** @type {Row[]} */ ([]));
  const vRef = useRef(/** @type {import('../lib/virtual.js').Virtualizer | null} */ (null));
  /** Brings the row with `key` into the DOM (scrolling the window to it); the element when drawn. @param {string} key @param {'start'|'center'} align */
  const reveal = (key, align) => {
    const el = box.current?.querySelector(`[data-row-key="${CSS.escape(key)}"]`);
    if (el instanceof HTMLElement) return el;
    const i = rowsRef.current.findIndex((r) => r.key === key);
    if (i >= 0) vRef.current?.scrollToIndex(i, { align });
    return null;
  };
  /** Whether the rows from `key` to the end are taller than the view (px measured or estimated). @param {string} key */
  const tallerThanView = (key) => {
    const v = vRef.current;
    const i = rowsRef.current.findIndex((r) => r.key === key);
    if (!v || i < 0) return false;
    const item = v.measurementsCache[i];
    return !!item && v.getTotalSize() - (item.start - v.options.scrollMargin) > (box.current?.clientHeight ?? 0);
  };
  const paging = useTimelinePaging({ stick, cid, items, loaded: !!tl?.loaded, reveal, tallerThanView });

  // The items' rows (with their day labels) are rebuilt only when the items or the divider
  // change; my pending bubbles go after them without walking the items again.
  /** @type {Row[]} */
  const itemRows = useMemo(() => {
    /** @type {Row[]} */
    const out = [];
    // A label is made only where the day changes: a long chat has far fewer days than messages.
    let lastDay = -1;
    for (const it of items) {
      const day = dayOf(it);
      if (day !== lastDay) {
        out.push({ key: `d_${it.event_id}`, kind: "day", day: dayLabel(it.ts) });
        lastDay = day;
      }
      if (it.event_id === paging.divider) out.push({ key: "unread-divider", kind: "unread" });
      out.push({ key: it.event_id, kind: "item", it });
    }
    return out;
  }, [items, paging.divider]);
  /** @type {Row[]} */
  const rows = useMemo(
    () => (locals.length ? itemRows.concat(locals.map((l) => ({ key: l.local_id, kind: "local", l }))) : itemRows),
    [itemRows, locals],
  );
  rowsRef.current = rows;
  const v = useVirtualRows({ box, rows, margin, follow: stick });
  vRef.current = v;

  // Where the rows start inside the scroll box (its padding): the window is measured from there.
  useLayoutEffect(() => {
    const el = box.current;
    const inner = list.current;
    if (!el || !inner) return;
    // The first drawn row starts one gap below the top spacer, which is `before` px tall.
    const top = inner.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
    const m = Math.round(top + GAP);
    if (m !== margin) setMargin(m);
  });

  // What the reader sees stays where it is, by one mechanism. The item at the top of the view (its
  // key, and how far below the box's top edge it starts) is noted when the reader scrolls; after
  // every drawing (an older page above, a row above measured taller than guessed, the paging note
  // changing) the scroll position is set so that the item starts there again, from where it is
  // drawn (or, before it is drawn, from the virtualizer's measurements). The browser's own scroll
  // anchoring is off (overflow-anchor in the stylesheet) and the virtualizer adjusts for rows
  // above only while the view follows the end: a second mechanism would move the view again, by
  // an amount that depends on which ran first.
  const anchor = useRef(/** @type {{ key: string, top: number, scrollTop: number } | null} */ (null));
  /**
   * Notes the first drawn item in view (its bottom below the box's top edge, its top above the
   * bottom edge). Right after a scroll the rows drawn may still be those of the place before: then
   * none is in view, and the next drawing notes one.
   */
  const note = () => {
    const el = box.current;
    anchor.current = null;
    if (!el || stick.current) return;
    const { top, bottom } = el.getBoundingClientRect();
    for (const row of el.querySelectorAll(".item[data-row-key]")) {
      const r = row.getBoundingClientRect();
      if (r.bottom > top && r.top < bottom && row instanceof HTMLElement && row.dataset.rowKey) {
        anchor.current = { key: row.dataset.rowKey, top: r.top - top, scrollTop: el.scrollTop };
        return;
      }
    }
  };
  /** Puts the noted item back where it was; a scroll position set by anything else is the new place. */
  const hold = () => {
    const el = box.current;
    const a = anchor.current;
    if (!el || stick.current) return;
    if (!a || Math.abs(el.scrollTop - a.scrollTop) > 1) return note();
    const row = el.querySelector(`[data-row-key="${CSS.escape(a.key)}"]`);
    if (row) {
      const off = row.getBoundingClientRect().top - el.getBoundingClientRect().top - a.top;
      if (Math.abs(off) >= 1) el.scrollTop += off;
    } else {
      const i = rowsRef.current.findIndex((r) => r.key === a.key);
      const at = i >= 0 ? v.measurementsCache[i] : undefined;
      if (!at) return note();
      el.scrollTop = at.start - a.top;
    }
    a.scrollTop = el.scrollTop;
  };
  useLayoutEffect(hold);

  // Follow new items when the reader is at the bottom; leave them alone when scrolled up.
  useLayoutEffect(() => {
    if (stick.current && count > 0) v.scrollToEnd();
  }, [count, cid]);
  useEffect(() => {
    stick.current = true;
  }, [cid]);

  const found = paging.found;
  const latest = useMemo(() => latestCardByJob(items), [items]);
  // Buttons the server recorded a click for (its action messages): shown as done, even after a reload.
  const acted = useMemo(() => {
    const out = new Set();
    for (const i of items) {
      const a = /** @type {any} */ (i.message).action;
      if (a) out.add(`${a.card_id}:${a.button_id}`);
    }
    return out;
  }, [items]);
  // "Seen by" goes under my latest message of a group.
  const lastMine = useMemo(
    () =>
      group
        ? [...items]
            .reverse()
            .find(
              (i) =>
                i.sender.entity_id === me &&
                !i.deleted &&
                i.message.kind === "text" &&
                !(/** @type {any} */ (i.message).action),
            )
        : undefined,
    [items, group, me],
  );

  const shown = v.getVirtualItems();
  const before = shown.length ? shown[0].start - margin : 0;
  const after = shown.length ? Math.max(0, v.getTotalSize() - (shown[shown.length - 1].end - margin)) : 0;
  /** @param {Row} r @param {number} index */
  const drawRow = (r, index) => {
    const at = { key: r.key, "data-index": index, "data-row-key": r.key, ref: v.measureElement };
    if (r.kind === "day") return html`<div ...${at} class="day"><span>${r.day}</span></div>`;
    if (r.kind === "unread")
      return html`<div ...${at} class="unread-divider" role="separator" aria-label=${t("timeline.new_messages")}><span>${t("timeline.new_messages")}</span></div>`;
    if (r.kind === "item") {
      const it = r.it;
      return html`<div ...${at} class=${found === it.event_id ? "item item-found" : "item"} data-event-id=${it.event_id} data-message-id=${it.message.message_id} tabIndex="-1"><${Pure} deps=${depsOf(it)} draw=${() => renderItem(it)} />${
        it === lastMine ? html`<${SeenBy} s=${s} conv=${conv} cursor=${it.cursor} />` : null
      }</div>`;
    }
    const l = r.l;
    if (l.kind === "file")
      return html`<div ...${at} class="item item-local" data-local-id=${l.local_id}><${UploadBubble} bubble=${l} /></div>`;
    return html`<div ...${at} class="item item-local" data-local-id=${l.local_id}>
      <${MessageBubble} text=${l.text} ts=${l.ts} mine=${true} status=${l.status === "waiting" ? "sending" : l.status} onRetry=${l.retry} action=${l.kind === "action"} /></div>`;
  };

  /**
   * What an item's drawing reads besides the item: its receipt, the people named, the job of a
   * card (and which card speaks for it), the buttons' states, thread marks and who I am.
   * @param {TimelineItem} it
   */
  function depsOf(it) {
    const m = /** @type {any} */ (it.message);
    const jobId = m.card?.job_id;
    const rich = !!(m.card || m.action_summary || m.surfaces || m.choices);
    return [
      it,
      it.sender.entity_id === me ? receiptOf(s, conv, it.cursor) : undefined,
      s.me,
      s.entities,
      admin,
      group,
      s.threadMarks[m.message_id],
      jobId ? s.jobs[jobId] : undefined,
      jobId ? latest[jobId] : undefined,
      rich ? acted : undefined,
      rich ? s.buttons : undefined,
      rich ? s.jobs : undefined,
      rich ? s.presence : undefined,
    ];
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
      // The reader moved the view (not the timeline putting the noted item back): a new place,
      // noted once the rows for it are drawn.
      const a = anchor.current;
      if (a && Math.abs(el.scrollTop - a.scrollTop) > 1) anchor.current = null;
      paging.onScroll(el);
    }}>
    <div class="timeline-inner">
      ${paging.top}
      ${!tl?.loaded && items.length === 0 ? html`<div class="loading">${t("timeline.loading")}</div>` : null}
      ${tl?.loaded && count === 0 ? html`<div class="empty-chat">${t("timeline.empty")}</div>` : null}
      <div class="timeline-space" ref=${list} style=${{ height: `${before}px` }}></div>
      ${shown.map((x) => {
        const r = rows[x.index];
        return r ? drawRow(r, x.index) : null;
      })}
      <div class="timeline-space" style=${{ height: `${after}px` }}></div>
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
