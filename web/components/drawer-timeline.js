// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { clock, humanize, stateLabel } from "../format.js";
import { Icon } from "./icon.js";

/** @typedef {import('../types.js').JobTimelineItem} JobTimelineItem */

const SHOW = 12;
/** @typedef {import('./icon.js').IconName} IconName */
/** Each approval's icon; its words are tl.approval.<action> ("Approved by {name}"). */
const APPROVAL = /** @type {Record<string, IconName>} */ ({
  approved: "check",
  rejected: "x",
  acknowledged: "check",
  accepted: "check",
  cancelled: "x",
  disputed: "flag",
  changes_requested: "edit",
  input_provided: "edit",
});
/** @param {unknown} type */
const cardKind = (type) =>
  type === "job.formalize" || type === "job.tracking" || type === "job.finished"
    ? t(`tl.card.${type}`)
    : t("card.kind.other");

/** @param {number | undefined} ms */
const secs = (ms) => (typeof ms === "number" ? ` ${t("tl.seconds", { seconds: ms / 1000 })}` : "");

/** A preview object as key/value rows; values are strings the server already redacted. @param {{ data: any, label: string }} props */
function Preview({ data, label }) {
  if (!data || typeof data !== "object") return null;
  const rows = Object.entries(data).slice(0, 8);
  if (!rows.length) return null;
  return html`<div class="kv"><span class="label">${label}</span>
    <dl>${rows.map(([k, v]) => html`<div key=${k}><dt>${k}</dt><dd>${typeof v === "object" ? JSON.stringify(v) : String(v)}</dd></div>`)}</dl></div>`;
}

/** @param {{ it: any }} props */
function Item({ it }) {
  /** @type {[IconName, any, string]} icon, title, tone */
  let head;
  let detail = null;
  switch (it.kind) {
    case "state":
      head = [
        "swap",
        html`${t("tl.state", { from: stateLabel(it.prev_state ?? ""), to: stateLabel(it.next_state ?? "") })}${it.reason_code ? html` <span class="muted">(${humanize(it.reason_code)})</span>` : null}`,
        "state",
      ];
      if (it.note) detail = html`<p class="tl-note">${it.note}</p>`;
      break;
    case "approval": {
      const icon = APPROVAL[it.action] ?? "check";
      const words = APPROVAL[it.action]
        ? t(`tl.approval.${it.action}`, { name: it.actor_name })
        : t("tl.approval.other", { action: humanize(String(it.action ?? "")), name: it.actor_name });
      head = [
        icon,
        words,
        it.action === "disputed" || it.action === "rejected" || it.action === "cancelled" ? "bad" : "ok",
      ];
      if (it.reason) detail = html`<p class="tl-note">“${it.reason}”</p>`;
      break;
    }
    case "tool": {
      /** @type {IconName} */
      const icon = it.status === "success" ? "check" : it.status === "error" ? "alert" : "tool";
      const title = `${t("tl.tool", { name: it.tool_name, status: it.status })}${secs(it.latency_ms)}${it.attempt > 1 ? ` · ${t("tl.attempt", { n: it.attempt })}` : ""}`;
      return html`<li class=${`tl tl-tool tl-${it.status}`}>
        <details><summary><span class="tl-icon"><${Icon} name=${icon} size=${13} /></span>
          <span class="tl-title">${title}</span><span class="tl-time">${clock(it.ts)}</span></summary>
          <div class="tl-expand">
            ${it.purpose ? html`<p class="tl-note">${it.purpose}</p>` : null}
            <${Preview} data=${it.inputs_preview} label=${t("tl.inputs")} />
            <${Preview} data=${it.output_preview} label=${t("tl.output")} />
            ${it.error_safe ? html`<p class="tl-error">${it.error_safe.error_code}: ${it.error_safe.message_safe}${it.error_safe.retryable ? ` ${t("tl.will_retry")}` : ""}</p>` : null}
            <p class="tl-ids">${t("tl.ids", { id: it.tool_call_id ?? "—", event: it.event_id })}</p>
          </div>
        </details></li>`;
    }
    case "card":
      head = ["card", t("tl.card", { kind: cardKind(it.card_type), summary: it.summary ?? it.title ?? "" }), "card"];
      break;
    case "message":
      // Action messages already start with who did it ("Dan approved …").
      head = [
        "chat",
        String(it.body_text ?? "").startsWith(it.actor_name) ? it.body_text : `${it.actor_name}: ${it.body_text ?? ""}`,
        "msg",
      ];
      break;
    case "artifact":
      head = ["file", t("tl.artifact", { title: it.title ?? it.artifact?.title ?? "" }), "ok"];
      break;
    default:
      head = ["card", humanize(String(it.kind ?? "event")), "msg"];
  }
  return html`<li class=${`tl tl-${head[2]}`}>
    <div class="tl-row"><span class="tl-icon"><${Icon} name=${head[0]} size=${13} /></span>
      <span class="tl-title">${head[1]}</span><span class="tl-time">${clock(it.ts)}</span></div>
    ${it.kind !== "approval" && it.actor_name ? html`<span class="tl-actor">${it.actor_name}</span>` : null}
    ${detail}
  </li>`;
}

/** Most recent first; the last 12 by default, "Show all" expands. @param {{ items: JobTimelineItem[] }} props */
export function DrawerTimeline({ items }) {
  const [all, setAll] = useState(false);
  const sorted = [...items].sort((a, b) => b.ts.localeCompare(a.ts));
  const shown = all ? sorted : sorted.slice(0, SHOW);
  return html`<div>
    <ol class="drawer-timeline">${shown.map((it) => html`<${Item} key=${it.event_id + it.kind} it=${it} />`)}</ol>
    ${sorted.length > SHOW ? html`<button type="button" class="linkish" onClick=${() => setAll(!all)}>${all ? t("tl.show_fewer") : t("tl.show_all", { count: sorted.length })}</button>` : null}
  </div>`;
}
