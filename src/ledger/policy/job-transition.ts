import { JOB_STATES, type TJobState } from "../../../contracts/primitives.js";

const STATES: ReadonlySet<string> = new Set(JOB_STATES);

/**
 * The state an event puts its job in, or undefined when it does not move the job. One
 * definition shared by the fold (which applies it) and the FSM rule (which judges it), so the
 * two can never disagree about what an event means.
 */
export function impliedJobState(event: { event_type: string; payload?: unknown }): TJobState | undefined {
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
      next = (p?.finished_card as { outcome?: { result?: unknown } } | undefined)?.outcome?.result;
      break;
    default:
      return undefined;
  }
  return typeof next === "string" && STATES.has(next) ? (next as TJobState) : undefined;
}
