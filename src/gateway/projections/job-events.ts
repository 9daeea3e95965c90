import type { TStoredEvent } from "../../../contracts/events.js";
import type { TJobTimelineItem } from "../../../contracts/gateway.js";
import { displayName, type TenantState } from "./state.js";

const PREVIEW_FIELDS = 6;

/** Previews show at most six scalar fields; anything that looks like an address is masked. */
function preview(obj: Record<string, unknown> | undefined): Record<string, string | number | boolean> | undefined {
  if (!obj) return undefined;
  const out: Record<string, string | number | boolean> = {};
  // Sorted: the ledger stores canonical JSON, so a replayed event's keys come back sorted, and
  // a preview must not depend on whether it was built live or on boot.
  for (const [k, v] of Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (Object.keys(out).length >= PREVIEW_FIELDS) break;
    if (typeof v === "number" || typeof v === "boolean") out[k] = v;
    else if (typeof v === "string") out[k] = maskPii(v).slice(0, 200);
    else if (Array.isArray(v)) out[k] = `${v.length} item${v.length === 1 ? "" : "s"}`;
    else if (v && typeof v === "object" && "redacted" in v) out[k] = String((v as { redacted: unknown }).redacted);
    else if (v && typeof v === "object") {
      // One level down (a tool's `arguments`), as `arguments.path`.
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      )) {
        if (Object.keys(out).length >= PREVIEW_FIELDS) break;
        if (typeof v2 === "number" || typeof v2 === "boolean") out[`${k}.${k2}`] = v2;
        else if (typeof v2 === "string") out[`${k}.${k2}`] = maskPii(v2).slice(0, 200);
      }
    }
  }
  return out;
}

function maskPii(s: string): string {
  return s.replace(/([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g, "$1***@$2");
}

/** projection_job_events: the drawer's normalized timeline, per the seed's mapping. */
function normalizeJobEvent(state: TenantState, ev: TStoredEvent): TJobTimelineItem | null {
  const base = { ts: ev.ts, actor_name: displayName(state, ev.actor.entity_id), event_id: ev.event_id };
  switch (ev.event_type) {
    case "job.state_changed":
      return {
        kind: "state",
        ...base,
        prev_state: ev.payload.prev_state,
        next_state: ev.payload.next_state,
        reason_code: ev.payload.reason_code,
        note: ev.payload.note,
      };
    case "job.approved":
      return { kind: "approval", ...base, action: "approved" };
    case "job.rejected":
      return {
        kind: "approval",
        ...base,
        action: "rejected",
        reason: ev.payload.reason_text ?? ev.payload.reason_code,
      };
    case "job.acknowledged":
      return { kind: "approval", ...base, action: "acknowledged" };
    case "job.disputed":
      return { kind: "approval", ...base, action: "disputed", reason: ev.payload.reason_text };
    case "job.changes_requested":
      return { kind: "message", ...base, body_text: `Requested changes: ${ev.payload.changes_text}` };
    case "job.input_provided":
      return { kind: "message", ...base, body_text: `Provided ${Object.keys(ev.payload.inputs).sort().join(", ")}` };
    case "job.proposed":
      return card(base, ev.payload.proposed_card);
    case "job.progress":
      return card(base, ev.payload.tracking_card);
    case "job.completed":
      return card(base, ev.payload.finished_card);
    case "job.artifact_attached":
      return { kind: "artifact", ...base, artifact: ev.payload.artifact };
    case "tool.called":
      return {
        kind: "tool",
        ...base,
        tool_name: ev.payload.tool_name,
        status: "called",
        purpose: ev.payload.purpose,
        inputs_preview: preview(ev.payload.inputs),
        tool_call_id: ev.payload.tool_call_id,
        attempt: ev.payload.attempt,
      };
    case "tool.result":
      return {
        kind: "tool",
        ...base,
        tool_name: ev.payload.tool_name,
        status: ev.payload.status,
        latency_ms: ev.payload.latency_ms,
        output_preview: preview(ev.payload.output),
        error_safe: ev.payload.error,
        tool_call_id: ev.payload.tool_call_id,
        attempt: ev.payload.attempt,
      };
    case "message.sent":
      if (ev.payload.kind === "text" && ev.payload.body_text)
        return { kind: "message", ...base, body_text: ev.payload.body_text };
      if (ev.payload.kind === "system" && ev.payload.action && ev.payload.body_text)
        return { kind: "message", ...base, body_text: ev.payload.body_text };
      return null;
    default:
      return null;
  }
}

function card(
  base: { ts: string; actor_name: string; event_id: string },
  c: { card_type: string; title: string; summary?: string | undefined; card_id: string },
): TJobTimelineItem {
  return { kind: "card", ...base, card_type: c.card_type, title: c.title, summary: c.summary, card_id: c.card_id };
}

export function applyJobEvents(state: TenantState, ev: TStoredEvent): void {
  if (!ev.job_id) return;
  const item = normalizeJobEvent(state, ev);
  if (!item) return;
  // JSON has no undefined: drop absent optionals so a rebuilt projection deep-equals a live one.
  for (const k of Object.keys(item)) if (item[k] === undefined) delete item[k];
  let list = state.jobEvents.get(ev.job_id);
  if (!list) state.jobEvents.set(ev.job_id, (list = []));
  list.push(item);
}
