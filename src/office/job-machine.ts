import type { TArtifactRef, TCardActionType, TJobCard, TRedactedValue } from "../../contracts/index.js";
import type { TJobReplyReceivedPayload, TStoredEvent } from "../../contracts/events.js";
import { ACTIVE_JOB_STATES, type TActor, type TJobState } from "../../contracts/primitives.js";
import type { SlotValues } from "./planner/planner.js";
import { meetingType } from "./tools/meeting-rooms.js";
import type { MeetingChange } from "./jobs/meeting-change.js";

/**
 * The job as Office sees it, folded from its ledger events only (no Office table holds job
 * state), plus the pure tables that say what may happen next. `foldJob` is what restart,
 * trajectory and "reconstruct by job_id" all use.
 */

export type JobSlots = Omit<SlotValues, "attendee_email" | "meeting_url"> & {
  attendee_email?: TRedactedValue;
  /** A pasted meeting link lives in the vault; the ledger keeps "Zoom link" and the pointer. */
  meeting_url?: TRedactedValue;
  notes?: string;
  /** The language the job started in (its cards stay in it); absent means English. */
  locale?: string;
  /** A handoff job: who asked, and what (in their words, PII already vaulted). */
  requested_by?: string;
  request?: string;
  /** A tool job (MCP): the tool, its arguments as the ledger keeps them, and the vault entry of the exact ones. */
  tool_call?: { name: string; server: string; args: Record<string, unknown>; args_ref: string; purpose: string; locale?: string };
  /** The person who asked wants a reminder this many minutes before the meeting starts. */
  remind_minutes?: number;
  /** A follow-up that moves or cancels a booked meeting: the version it replaces. */
  change?: MeetingChange;
};

export type JobKind = "schedule_meeting" | "handoff" | "tool_call" | "generic";

interface ToolAttempt {
  tool_call_id: string;
  tool_name: string;
  attempt: number;
  called_at: string;
  called_event_id: string;
  status?: "success" | "error";
  error_code?: string;
  retryable?: boolean;
  suggested_wait_seconds?: number;
  result_at?: string;
  result_event_id?: string;
  provider?: string;
  /** An MCP call: its arguments as the ledger keeps them, and the vault entry of the exact ones. */
  args?: Record<string, unknown>;
  args_ref?: string;
  /** The language the call was asked in (an MCP call's `inputs.locale`, absent for English). */
  locale?: string;
  /** A successful result's recorded output and artifacts: what cards may say happened. */
  output?: Record<string, unknown>;
  artifacts?: TArtifactRef[];
}

export interface JobView {
  job_id: string;
  tenant_id: string;
  conversation_id: string;
  title: string;
  owner_entity_id: string;
  parent_job_id?: string;
  kind: JobKind;
  goal: string;
  state: TJobState;
  trace_id: string;
  created_at: string;
  updated_at: string;
  slots: JobSlots;
  /** Every card posted for the job (by card_id), and the latest of each type. */
  cards: Map<string, TJobCard>;
  latest: Partial<Record<TJobCard["card_type"], TJobCard>>;
  /** The message.sent that offered each card: what a click on it was caused by. */
  card_events: Map<string, string>;
  approvals: Array<{ by: string; at: string; action: string; reason?: string }>;
  disputes: Array<{ by: string; at: string; reason: string }>;
  tools: ToolAttempt[];
  outcome?: string;
  last_event_id: string;
  /** Set once a person took the job over (job.handed_over): its agent no longer acts on it. */
  handed_over?: { from_entity_id: string; to_entity_id: string; by: string; at: string };
  /** Set when a state change says the person must act (auth, invalid input, dispute). */
  last_reason_code?: string;
  /** Invitees' answers to the job's invitation (job.reply_received), oldest first. */
  replies?: Array<TJobReplyReceivedPayload & { event_id: string; at: string }>;
}

const SLOT_KEYS = new Set(["duration_minutes", "attendee_name", "time_window", "timezone", "meeting_link", "meeting_url", "link_label", "when", "title", "day_hint"]);

/** Maps an input field key from a card form to the slot it fills. */
export function slotForInputKey(key: string): keyof JobSlots | undefined {
  if (key.endsWith("_email") || key === "email") return "attendee_email";
  if (key === "info" || key === "details") return "notes";
  if (key === "duration") return "duration_minutes";
  return SLOT_KEYS.has(key) ? (key as keyof JobSlots) : undefined;
}

function applyInputs(slots: JobSlots, inputs: Record<string, unknown>): JobSlots {
  const next: JobSlots = { ...slots };
  for (const [k, v] of Object.entries(inputs)) {
    const slot = slotForInputKey(k);
    if (!slot || v === undefined || v === "") continue;
    if (slot === "duration_minutes") {
      const n = Number(v);
      if (Number.isFinite(n) && n > 0) next.duration_minutes = n;
    } else (next as Record<string, unknown>)[slot] = v;
  }
  return next;
}

/** The smallest event `evolve` reads: a stored event, or a draft about to be written. */
export interface JobEvent {
  event_type: string;
  payload: object;
  actor: TActor;
  event_id?: string;
  ts?: string;
  tenant_id?: string;
  trace_id?: string;
}

/**
 * One event applied to the job: the whole state machine's memory. `job.created` starts a job;
 * any other event before it is ignored. Pure: the same events always fold to the same view.
 */
export function evolve(state: JobView | null, e: JobEvent): JobView | null {
  if (e.event_type === "job.created") {
    const p = e.payload as Extract<TStoredEvent, { event_type: "job.created" }>["payload"];
    return {
      job_id: p.job_id,
      tenant_id: e.tenant_id ?? "",
      conversation_id: p.conversation_id,
      title: p.title,
      owner_entity_id: p.owner_entity_id,
      ...(p.parent_job_id ? { parent_job_id: p.parent_job_id } : {}),
      kind: "generic",
      goal: p.title,
      state: "draft",
      trace_id: e.trace_id ?? "",
      created_at: e.ts ?? "",
      updated_at: e.ts ?? "",
      slots: p.requested_by ? { requested_by: p.requested_by } : {},
      cards: new Map(),
      latest: {},
      card_events: new Map(),
      approvals: [],
      disputes: [],
      tools: [],
      last_event_id: e.event_id ?? "",
    };
  }
  if (!state) return null;
  const job: JobView = {
    ...state,
    ...(e.ts ? { updated_at: e.ts } : {}),
    ...(e.event_id ? { last_event_id: e.event_id } : {}),
  };
  const at = e.ts ?? state.updated_at;
  const by = e.actor.entity_id;
  const ev = e as TStoredEvent;
  switch (ev.event_type) {
    case "job.proposed": {
      const card = ev.payload.proposed_card;
      const ext = card.job as { kind?: string; slots?: JobSlots };
      job.kind = ext.kind === "schedule_meeting" || ext.kind === "handoff" || ext.kind === "tool_call" ? ext.kind : "generic";
      job.slots = { ...(state.slots.requested_by ? { requested_by: state.slots.requested_by } : {}), ...(ext.slots ?? {}) };
      job.goal = card.job.goal;
      job.title = card.title;
      job.state = "proposed";
      break;
    }
    case "message.sent":
      if (ev.payload.kind === "card" && ev.payload.card) {
        const card = ev.payload.card;
        job.cards = new Map(job.cards).set(card.card_id, card);
        job.latest = { ...job.latest, [card.card_type]: card };
        if (e.event_id) job.card_events = new Map(job.card_events).set(card.card_id, e.event_id);
      }
      break;
    case "job.approved":
      job.state = "approved";
      job.approvals = [...job.approvals, { by, at, action: "approved" }];
      break;
    case "job.rejected":
      job.state = "rejected";
      job.outcome = "rejected";
      job.approvals = [...job.approvals, { by, at, action: "rejected", ...(ev.payload.reason_text ? { reason: ev.payload.reason_text } : {}) }];
      break;
    case "job.changes_requested":
      job.approvals = [...job.approvals, { by, at, action: "changes_requested", reason: ev.payload.changes_text }];
      break;
    case "job.acknowledged": {
      const action = ev.payload.action?.type === "job.ack" || !ev.payload.action ? "acknowledged" : ev.payload.action.type.replace("job.", "");
      job.approvals = [...job.approvals, { by, at, action }];
      break;
    }
    case "job.handed_over":
      job.owner_entity_id = ev.payload.to_entity_id;
      job.handed_over = { from_entity_id: ev.payload.from_entity_id, to_entity_id: ev.payload.to_entity_id, by, at };
      break;
    case "job.disputed":
      job.disputes = [...job.disputes, { by, at, reason: ev.payload.reason_text }];
      break;
    case "job.input_provided":
      job.slots = applyInputs(job.slots, ev.payload.inputs);
      break;
    case "job.reply_received":
      job.replies = [...(job.replies ?? []), { ...ev.payload, event_id: e.event_id ?? "", at }];
      break;
    case "job.state_changed":
      job.state = ev.payload.next_state;
      if (ev.payload.reason_code) job.last_reason_code = ev.payload.reason_code;
      if (["failed", "cancelled", "rejected", "completed"].includes(ev.payload.next_state)) job.outcome = ev.payload.next_state;
      break;
    case "job.completed": {
      const r = ev.payload.finished_card.outcome.result;
      job.outcome = r;
      if (r === "completed") job.state = "completed";
      break;
    }
    case "tool.called": {
      const p = ev.payload;
      const inputs = p.inputs as { provider?: string; arguments?: Record<string, unknown>; arguments_ref?: string; locale?: string };
      job.tools = [
        ...job.tools,
        {
          tool_call_id: p.tool_call_id,
          tool_name: p.tool_name,
          attempt: p.attempt ?? 1,
          called_at: at,
          called_event_id: e.event_id ?? "",
          ...(typeof inputs.provider === "string" ? { provider: inputs.provider } : {}),
          ...(typeof inputs.arguments_ref === "string" ? { args_ref: inputs.arguments_ref, args: inputs.arguments ?? {} } : {}),
          ...(typeof inputs.locale === "string" ? { locale: inputs.locale } : {}),
        },
      ];
      break;
    }
    case "tool.result": {
      const p = ev.payload;
      job.tools = job.tools.map((t) => {
        if (t.tool_call_id !== p.tool_call_id) return t;
        const r: ToolAttempt = { ...t, status: p.status, result_at: at, ...(e.event_id ? { result_event_id: e.event_id } : {}) };
        if (p.output) r.output = p.output;
        if (p.artifacts) r.artifacts = p.artifacts;
        if (p.error) {
          r.error_code = p.error.error_code;
          r.retryable = p.error.retryable;
          if (p.error.suggested_wait_seconds !== undefined) r.suggested_wait_seconds = p.error.suggested_wait_seconds;
        }
        return r;
      });
      break;
    }
    default:
      break;
  }
  return job;
}

/** The job folded from its events: what restart, trajectory and "reconstruct by job_id" use. */
export function foldJob(events: readonly JobEvent[]): JobView | null {
  return events.reduce<JobView | null>(evolve, null);
}

const OPEN_STATES: ReadonlySet<string> = new Set(ACTIVE_JOB_STATES);

/** Proposed, approved, in progress or waiting for input: neither a draft nor finished. */
export function isOpenState(state: string): boolean {
  return OPEN_STATES.has(state);
}

/** Which clicks each state accepts; anything else is refused as ILLEGAL_JOB_TRANSITION. */
const ACTIONS_BY_STATE: Record<TJobState, TCardActionType[]> = {
  draft: ["chat.ask"],
  proposed: ["job.approve", "job.reject", "job.request_changes", "chat.ask"],
  approved: ["job.cancel", "chat.ask"],
  in_progress: ["job.ack", "job.provide_input", "job.dispute", "job.cancel", "job.retry", "job.switch_tool", "chat.ask"],
  waiting_input: ["job.ack", "job.provide_input", "job.dispute", "job.cancel", "job.retry", "job.switch_tool", "chat.ask"],
  completed: ["job.ack", "job.dispute", "job.follow_up", "chat.ask"],
  failed: ["job.ack", "job.dispute", "job.follow_up", "job.retry", "job.switch_tool", "job.cancel", "chat.ask"],
  cancelled: ["job.ack", "job.dispute", "job.follow_up", "chat.ask"],
  rejected: ["job.follow_up", "chat.ask"],
};

export function isActionAllowed(state: TJobState, action: TCardActionType): boolean {
  return ACTIONS_BY_STATE[state].includes(action);
}

/** Required inputs of a meeting job that are still missing, in the seed's order. */
export type MeetingInput = "attendee_email" | "time_window" | "timezone" | "meeting_link" | "meeting_url";

export function missingMeetingInputs(slots: JobSlots): MeetingInput[] {
  const out: MeetingInput[] = [];
  if (!slots.attendee_email) out.push("attendee_email");
  // A cancellation or a kept time needs no new time; a move carries its new one.
  if (!slots.when && !slots.time_window && slots.change?.kind !== "cancel" && slots.change?.kind !== "keep") out.push("time_window");
  if (!slots.timezone) out.push("timezone");
  if (!slots.meeting_link) out.push("meeting_link");
  else if (meetingType(slots.meeting_link) === "link" && !slots.meeting_url) out.push("meeting_url");
  return out;
}
