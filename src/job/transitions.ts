import type { TCardActionType } from "../../contracts/cards.js";
import { ACTIVE_JOB_STATES, JOB_STATES, TERMINAL_JOB_STATES, type TJobState } from "../../contracts/primitives.js";

/**
 * The job state machine's rules in one place: which state each event puts a job in, which
 * moves are legal, which clicks each state accepts and whose they are. The ledger's policy pack
 * states the same transition table as data (`policy.job_fsm`); a test proves the two equal, so
 * the rule a job obeys is written here and enforced there.
 */

/** Every legal move (from → to). Terminal states have none. */
export const JOB_TRANSITIONS: ReadonlyArray<readonly [TJobState, TJobState]> = [
  ["draft", "proposed"],
  ["draft", "in_progress"],
  ["proposed", "approved"],
  ["proposed", "rejected"],
  ["approved", "in_progress"],
  ["in_progress", "waiting_input"],
  ["in_progress", "completed"],
  ["in_progress", "failed"],
  ["in_progress", "cancelled"],
  ["waiting_input", "in_progress"],
  ["waiting_input", "failed"],
  ["waiting_input", "cancelled"],
];

/** A Finished card may also close a job that waits (the seed's gate: completed from waiting_input). */
export const FINISH_EXTRA_TRANSITIONS: ReadonlyArray<readonly [TJobState, TJobState]> = [
  ["waiting_input", "completed"],
];

const MOVES = new Set(JOB_TRANSITIONS.map(([a, b]) => `${a}>${b}`));
const STATES: ReadonlySet<string> = new Set(JOB_STATES);
const TERMINAL: ReadonlySet<string> = new Set(TERMINAL_JOB_STATES);
const OPEN: ReadonlySet<string> = new Set(ACTIVE_JOB_STATES);

/** True when the machine allows a job in `from` to move to `to`. */
export function canMove(from: TJobState, to: TJobState): boolean {
  return MOVES.has(`${from}>${to}`);
}

/** Completed, rejected, cancelled or failed: nothing moves the job any more. */
export function isTerminalState(state: string): boolean {
  return TERMINAL.has(state);
}

/** Proposed, approved, in progress or waiting for input: neither a draft nor finished. */
export function isOpenState(state: string): boolean {
  return OPEN.has(state);
}

/**
 * The state an event puts its job in, or undefined when it does not move the job. Every fold
 * of job state (the ledger's, Office's, the gateway's) applies this one function, and the
 * ledger's FSM rule judges the move it implies, so no two of them can read an event differently.
 */
export function stateAfter(event: { event_type: string; payload?: unknown }): TJobState | undefined {
  const p = event.payload as Record<string, unknown> | undefined;
  let next: unknown;
  switch (event.event_type) {
    case "job.created":
      return "draft";
    case "job.proposed":
      return "proposed";
    case "job.approved":
      return "approved";
    case "job.rejected":
      return "rejected";
    case "job.state_changed":
      next = p?.next_state;
      break;
    case "job.completed":
      // A Finished card's result is the state it closes the job in (it may restate one already reached).
      next = (p?.finished_card as { outcome?: { result?: unknown } } | undefined)?.outcome?.result;
      break;
    default:
      return undefined;
  }
  return typeof next === "string" && STATES.has(next) ? (next as TJobState) : undefined;
}

/** Which clicks each state accepts; anything else is refused as ILLEGAL_JOB_TRANSITION. */
export const ACTIONS_BY_STATE: Readonly<Record<TJobState, readonly TCardActionType[]>> = {
  draft: ["chat.ask"],
  proposed: ["job.approve", "job.reject", "job.request_changes", "chat.ask"],
  // An approval moves the job on in the same batch, and the pack has no approved → cancelled.
  approved: ["chat.ask"],
  in_progress: [
    "job.ack",
    "job.provide_input",
    "job.dispute",
    "job.cancel",
    "job.retry",
    "job.switch_tool",
    "chat.ask",
  ],
  waiting_input: [
    "job.ack",
    "job.provide_input",
    "job.dispute",
    "job.cancel",
    "job.retry",
    "job.switch_tool",
    "chat.ask",
  ],
  completed: ["job.ack", "job.dispute", "job.follow_up", "chat.ask"],
  failed: ["job.ack", "job.dispute", "job.follow_up", "job.retry", "job.switch_tool", "job.cancel", "chat.ask"],
  cancelled: ["job.ack", "job.dispute", "job.follow_up", "chat.ask"],
  rejected: ["job.follow_up", "chat.ask"],
};

export function isActionAllowed(state: TJobState, action: string): boolean {
  return (ACTIONS_BY_STATE[state] as readonly string[]).includes(action);
}

/**
 * Approve and Reject are an approver's or an admin's; every other button is any person's in the
 * job's conversation (membership is the policy pack's own check).
 */
const APPROVER_ACTIONS: ReadonlySet<string> = new Set(["job.approve", "job.reject"]);

export function mayClick(roles: readonly string[], actionType: string): boolean {
  return !APPROVER_ACTIONS.has(actionType) || roles.includes("job_approver") || roles.includes("admin");
}

/** Which card type speaks for a job in each state: a card of another type has been overtaken. */
export function cardFitsState(cardType: string, state: TJobState): boolean {
  if (cardType === "job.formalize") return state === "proposed";
  if (cardType === "job.tracking") return state === "approved" || state === "in_progress" || state === "waiting_input";
  if (cardType === "job.finished") return isTerminalState(state);
  return false;
}
