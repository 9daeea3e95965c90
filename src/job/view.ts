import type { TArtifactRef, TJobCard } from "../../contracts/index.js";
import type { TJobReplyReceivedPayload, TStoredEvent } from "../../contracts/events.js";
import type { TActor, TJobState } from "../../contracts/primitives.js";
import { stateAfter } from "./transitions.js";

/**
 * The job as the ledger records it: one view folded from the job's events by `evolve`, the same
 * in every module. Office binds `S` to its slot types (what a meeting job remembers); the kernel
 * reads only the slots every job has.
 */

/** The slots every job may carry. */
export type BaseSlots = {
  /** Who asked for the job (a handoff or tool job records the asker). */
  requested_by?: string;
  duration_minutes?: number;
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

export interface JobView<S extends BaseSlots = BaseSlots> {
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
  slots: S;
  /** Every card posted for the job (by card_id), and the latest of each type. */
  cards: Map<string, TJobCard>;
  /** The newest card of any type: the one that speaks for the job now (see `summarize`). */
  last_card_id?: string;
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

const SLOT_KEYS = [
  "duration_minutes",
  "attendee_name",
  "time_window",
  "timezone",
  "meeting_link",
  "meeting_url",
  "link_label",
  "when",
  "title",
  "day_hint",
] as const;
const SLOT_KEY_SET: ReadonlySet<string> = new Set(SLOT_KEYS);

/** A slot a card form's answer can fill. */
export type InputSlot = (typeof SLOT_KEYS)[number] | "attendee_email" | "notes";

/** Maps an input field key from a card form to the slot it fills. */
export function slotForInputKey(key: string): InputSlot | undefined {
  if (key.endsWith("_email") || key === "email") return "attendee_email";
  if (key === "info" || key === "details") return "notes";
  if (key === "duration") return "duration_minutes";
  return SLOT_KEY_SET.has(key) ? (key as InputSlot) : undefined;
}

function applyInputs<S extends BaseSlots>(slots: S, inputs: Record<string, unknown>): S {
  const next: S = { ...slots };
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
export function evolve<S extends BaseSlots>(state: JobView<S> | null, e: JobEvent): JobView<S> | null {
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
      slots: (p.requested_by ? { requested_by: p.requested_by } : {}) as S,
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
  const job: JobView<S> = {
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
      const ext = card.job as { kind?: string; slots?: S };
      job.kind =
        ext.kind === "schedule_meeting" || ext.kind === "handoff" || ext.kind === "tool_call" ? ext.kind : "generic";
      job.slots = {
        ...(state.slots.requested_by ? { requested_by: state.slots.requested_by } : {}),
        ...(ext.slots ?? {}),
      } as S;
      job.goal = card.job.goal;
      job.title = card.title;
      break;
    }
    case "message.sent":
      if (ev.payload.kind === "card" && ev.payload.card) {
        const card = ev.payload.card;
        job.cards = new Map(job.cards).set(card.card_id, card);
        job.latest = { ...job.latest, [card.card_type]: card };
        job.last_card_id = card.card_id;
        if (e.event_id) job.card_events = new Map(job.card_events).set(card.card_id, e.event_id);
      }
      break;
    case "job.approved":
      job.approvals = [...job.approvals, { by, at, action: "approved" }];
      break;
    case "job.rejected":
      job.outcome = "rejected";
      job.approvals = [
        ...job.approvals,
        { by, at, action: "rejected", ...(ev.payload.reason_text ? { reason: ev.payload.reason_text } : {}) },
      ];
      break;
    case "job.changes_requested":
      job.approvals = [...job.approvals, { by, at, action: "changes_requested", reason: ev.payload.changes_text }];
      break;
    case "job.acknowledged": {
      const action =
        ev.payload.action?.type === "job.ack" || !ev.payload.action
          ? "acknowledged"
          : ev.payload.action.type.replace("job.", "");
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
      if (ev.payload.reason_code) job.last_reason_code = ev.payload.reason_code;
      if (["failed", "cancelled", "rejected", "completed"].includes(ev.payload.next_state))
        job.outcome = ev.payload.next_state;
      break;
    case "job.completed":
      job.outcome = ev.payload.finished_card.outcome.result;
      break;
    case "tool.called": {
      const p = ev.payload;
      const inputs = p.inputs as {
        provider?: string;
        arguments?: Record<string, unknown>;
        arguments_ref?: string;
        locale?: string;
      };
      job.tools = [
        ...job.tools,
        {
          tool_call_id: p.tool_call_id,
          tool_name: p.tool_name,
          attempt: p.attempt ?? 1,
          called_at: at,
          called_event_id: e.event_id ?? "",
          ...(typeof inputs.provider === "string" ? { provider: inputs.provider } : {}),
          ...(typeof inputs.arguments_ref === "string"
            ? { args_ref: inputs.arguments_ref, args: inputs.arguments ?? {} }
            : {}),
          ...(typeof inputs.locale === "string" ? { locale: inputs.locale } : {}),
        },
      ];
      break;
    }
    case "tool.result": {
      const p = ev.payload;
      job.tools = job.tools.map((t) => {
        if (t.tool_call_id !== p.tool_call_id) return t;
        const r: ToolAttempt = {
          ...t,
          status: p.status,
          result_at: at,
          ...(e.event_id ? { result_event_id: e.event_id } : {}),
        };
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
  // The state moves by the machine's one rule, the same in every fold.
  const next = stateAfter(e);
  if (next) job.state = next;
  return job;
}

/** The job folded from its events: what restart, trajectory and "reconstruct by job_id" use. */
export function foldJob<S extends BaseSlots = BaseSlots>(events: readonly JobEvent[]): JobView<S> | null {
  return events.reduce<JobView<S> | null>(evolve, null);
}
