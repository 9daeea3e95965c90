import type { TCardAction, TJobCard } from "../../../contracts/cards.js";
import type { TRedactedValue } from "../../../contracts/events.js";
import type { TActor } from "../../../contracts/primitives.js";
import type { TWhen } from "../../../contracts/when.js";
import type { IdGenerator } from "../../shared/ids.js";
import type { EntityProfile } from "../context-builder.js";
import type { Draft } from "../emitter.js";
import type { JobSlots, JobView } from "../job-machine.js";
import type { DeliveryOutcome, OutboxDelivery } from "../mail/index.js";
import type { CreateInviteOutput } from "../tools/calendar-create-invite.js";
import type { MeetingPlace } from "../tools/meeting-rooms.js";
import type { ToolDefinition, ToolErrorCode, ToolOutcome } from "../tools/tool.js";
import type { McpToolInfo } from "../mcp/hub.js";
import type { ProposalSpec } from "../job-proposals.js";
import type { TArtifactRef } from "../../../contracts/cards.js";
import type { TJobReplyReceivedPayload } from "../../../contracts/events.js";
import type { InviteAttendee } from "../job-machine.js";

/**
 * The job state machine's vocabulary, shared by the pure decider (`decide`) and the runner
 * that performs its effects. A command is something asked of a job; a decision is the events
 * that record it plus the effects the runner must carry out. Nothing here does I/O.
 */

/** A value bound for the ledger from a card form, already scrubbed (PII in the vault). */
export type LedgerInput = string | number | boolean | TRedactedValue | TWhen;

/** The person (or agent) behind a click, as the workspace knows them. */
export interface Clicker extends TActor {
  display_name: string;
  roles: readonly string[];
}

/** A click on a card button, exactly as the gateway accepted it. */
export interface Click {
  card_id: string;
  button_id: string;
  action: TCardAction;
  by: Clicker;
  /** The form answer as typed; the decider reads it only to check it and to refill a form. */
  input?: Record<string, unknown>;
}

/**
 * What the runner made ledger-safe before deciding (free text scrubbed, emails and links put
 * in the vault, time words resolved): the decider never sees a raw address.
 */
export interface Prepared {
  /** The click's free text (reason, change request, dispute, question), scrubbed. */
  text?: string;
  /** Form answers keyed as the form named them. */
  inputs?: Record<string, LedgerInput>;
  /** A change request's meeting details, read from its words. */
  slots?: Partial<JobSlots>;
  /** Move… / Cancel meeting: the meeting's latest version (this job's, or a later change's). */
  booked?: BookedMeeting;
}

/** One planned tool call: what the runner hands the tool router. */
export interface PlannedCall {
  call_id: string;
  tool_name: string;
  attempt: number;
  input: unknown;
  idempotency_key: string;
  provider: string;
}

export type JobCommand =
  | { type: "click"; click: Click; prepared: Prepared }
  /** A chat answer fills the form the open Tracking card asked for. */
  | { type: "answer_in_chat"; by: TActor; inputs: Record<string, LedgerInput> }
  /** A retry timer fired for this attempt. */
  | { type: "retry_due"; attempt: number }
  /** Boot found a tool call without a result: run it again under the same id and key. */
  | { type: "resume_call" }
  /** The tool answered; `breaker_open` is the provider's circuit after counting this failure. */
  | { type: "record_outcome"; call: PlannedCall; outcome: ToolOutcome & { latency_ms: number }; breaker_open: boolean }
  /**
   * A person hands the job to another person (or takes it): `job.handed_over`, a line in the
   * conversation in the giver's language, and the card that replaces the agent's last one.
   */
  | { type: "hand_over"; by: Clicker; to: { entity_id: string; display_name: string }; note?: string; locale?: string }
  /** A hand-over written by an earlier version without its card: the card that replaces the agent's last one. */
  | { type: "handed_over" }
  /** Assist's Apply on a proposal: the person's change request and the proposal it leads to (card built by Assist). */
  | {
      type: "revise_proposal";
      by: TActor;
      text: string;
      card: TJobCard;
      via: { card_id: string; button_id: string; action: TCardAction };
    }
  /** Resend from the Outbox screen. */
  | { type: "resend_mail" }
  /** An MCP tool reported progress during a call. */
  | { type: "tool_progress"; call_id: string; tool_name: string; progress: number; total?: number; message?: string }
  /** An MCP tool answered (its content already scrubbed, capped and stored as artifacts by the runner). */
  | { type: "record_mcp_outcome"; call: PlannedCall; outcome: McpOutcome; breaker_open: boolean }
  /** The outbox is about to deliver the invite (attempt n): the mail.send intent. */
  | { type: "mail_attempt"; delivery: OutboxDelivery; attempt: number }
  /** The mail server answered attempt n. */
  | { type: "mail_outcome"; delivery: OutboxDelivery; attempt: number; outcome: DeliveryOutcome }
  /**
   * A later job moved or cancelled the meeting this job booked: `summary` is that job's Finished
   * card (built from its calendar and mail results), `cancelled` whether the meeting is gone.
   */
  | { type: "meeting_changed"; by_job_id: string; summary: string; cancelled: boolean }
  /**
   * An invitee answered the job's invitation by mail: the reply as the mailbox read it (scrubbed,
   * its sender checked), the id its `job.reply_received` gets, and the invited attendee it is from.
   */
  | { type: "record_reply"; reply: TJobReplyReceivedPayload; event_id: string; attendee: InviteAttendee }
  /** The calendar write of an answer (`calendar.record_answer`) ended. */
  | {
      type: "record_answer_outcome";
      reply_event_id: string;
      call: PlannedCall;
      outcome: ToolOutcome & { latency_ms: number };
    }
  /** An answer's calendar write is due again: a retry timer fired (`attempt`), or boot found it owed. */
  | { type: "answer_retry_due"; reply_event_id: string; attempt?: number };

/** An MCP call's answer as the decider sees it: the runner has scrubbed the text and stored the content. */
export type McpOutcome =
  | {
      ok: true;
      text: string;
      content_types: string[];
      artifacts: TArtifactRef[];
      truncated?: boolean;
      latency_ms: number;
    }
  | { ok: false; error: { error_code: ToolErrorCode; message_safe: string; retryable: boolean }; latency_ms: number };

/** Commands that open a job: there is no job yet to decide against. */
export type OpenCommand =
  /** A proposal for approval (a meeting, a handoff, generic work). */
  | { type: "propose"; at: { tenant_id: string; conversation_id: string }; spec: ProposalSpec }
  /** A person asked for one MCP tool: proposed, or started at once when the tool is auto. */
  | {
      type: "open_tool_job";
      at: { tenant_id: string; conversation_id: string; trace_id: string };
      spec: ToolCallSpec;
      by: TActor;
    };

export type JobEffect =
  /** Run the tool; its outcome comes back as `record_outcome` against `job`. */
  | { type: "run_tool"; job: JobView; call: PlannedCall }
  | { type: "cancel_retry" }
  /**
   * The same once the decision's events are written: a retry that fires before then still finds
   * the job as it was, and a refused write (a hand-over the pack does not allow) leaves it armed.
   */
  | { type: "cancel_retry_after" }
  /** Cancel the job's call in flight (the protocol's cancellation is sent). */
  | { type: "abort_call" }
  | { type: "arm_retry"; delay_ms: number; attempt: number }
  | { type: "cancel_mail" }
  | { type: "resend_mail" }
  | { type: "queue_invite"; job: JobView; invite: CreateInviteOutput }
  /** The provider answered: its circuit closes again. */
  | { type: "reset_breaker"; provider: string }
  /** A move or cancel of a meeting finished: the jobs that booked its earlier versions are told (`meeting_changed`). */
  | { type: "tell_earlier_versions" }
  /** Write an invitee's answer to the calendar; its outcome comes back as `record_answer_outcome`. */
  | { type: "run_answer_write"; job: JobView; call: PlannedCall; reply_event_id: string }
  /** An answer's write failed on a retryable error: try it again after the delay (one timer per answer). */
  | { type: "arm_answer_retry"; reply_event_id: string; delay_ms: number; attempt: number };

export interface Decision {
  events: Draft[];
  effects: JobEffect[];
  /** Refused after the events are written: a bad form answer gets field errors and a card saying why. */
  refusal?: { fields: Record<string, string> };
  /** A new job the decision opened (a follow-up), and a note for the caller. */
  job_id?: string;
  notes?: string;
}

/** The facts about the tool a meeting job runs, as far as deciding needs them (no `run`). */
type ToolFacts = Pick<ToolDefinition<unknown>, "name" | "version" | "purpose" | "sanitize" | "providerOf">;

/** Everything a decision may read besides the job: time, ids and the workspace's facts. */
export interface DecideContext {
  now: string;
  ids: IdGenerator;
  /** The agent that owns the job. */
  agent: EntityProfile;
  defaultTimezone: string;
  /** A member's profile (names on cards; the requester is invited to their meeting). */
  profileOf(entityId: string): EntityProfile | undefined;
  /** The calendar tool and whether this agent may use it. */
  calendar: { tool: ToolFacts; allowed: boolean };
  /** What happens to an invite's email: sent by the outbox, not allowed, or no mail set up. */
  mail: "send" | "not_allowed" | "not_configured";
  /** Delay before each attempt of a retryable failure. */
  retrySchedule: readonly number[];
  /** An MCP tool's description and hints, when its server is connected. */
  mcpTool?: (name: string) => McpToolInfo | undefined;
  /**
   * Invitees' answers: the tool that writes one to the organizer's calendar, and whether this
   * agent writes them (`write`), may not, or no calendar is connected (absent: not connected).
   */
  answers?: { tool: ToolFacts; calendar: "write" | "not_allowed" | "not_connected" };
}

export const noDecision = (): Decision => ({ events: [], effects: [] });

/** A tool call a job carries: which tool, its arguments (ledger form) and where the exact ones are. */
export type ToolCallSpec = NonNullable<JobSlots["tool_call"]>;

/** One written version of a booked meeting: what a job's last calendar tool result recorded. */
export interface BookedMeeting {
  job_id: string;
  event_uid: string;
  sequence: number;
  artifact_id: string;
  scheduled_time: { start: string; end: string; timezone: string };
  meeting: MeetingPlace;
  cancelled: boolean;
  /** An email of this version was accepted by the mail server. */
  mailed: boolean;
}
