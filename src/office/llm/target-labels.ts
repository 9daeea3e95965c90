import type { TCardActionType } from "../../../contracts/cards.js";
import { JOB_STATES, type TJobState } from "../../../contracts/primitives.js";
import { isActionAllowed } from "../../job/transitions.js";
import type { PlanJobRef } from "../planner/planner.js";
import type { ActionSummary } from "./types.js";
import type { TargetSource } from "./thread-context.js";

export type IsActionAllowed = (state: string, action: TCardActionType) => boolean;

/** The job machine's own table, so the planner's pre-check and the executor never disagree. */
export const defaultIsActionAllowed: IsActionAllowed = (state, action) =>
  (JOB_STATES as readonly string[]).includes(state) && isActionAllowed(state as TJobState, action);

export const ACTION_VERBS: Record<string, string> = {
  approve: "Approve",
  reject: "Reject",
  request_changes: "Request changes to",
  provide_input: "Update",
  ack: "Acknowledge",
  dispute: "Dispute",
  cancel: "Cancel",
  follow_up: "Follow up on",
  retry: "Retry",
  switch_tool: "Switch tool for",
};

const WHY: Record<Exclude<TargetSource, "token"> | "model", string> = {
  focus: "the job this conversation is about",
  pinned: "the job pinned here",
  last: "the job you mentioned last",
  model: "picked from your message",
};

export function quoteTitle(title: string): string {
  return `“${title.length > 80 ? `${title.slice(0, 79)}…` : title}”`;
}

export function buildActionSummary(
  job: PlanJobRef,
  action: string,
  source: TargetSource | "model",
  others: readonly PlanJobRef[],
): ActionSummary {
  const assumed = source !== "token";
  return {
    job_id: job.job_id,
    job_title: job.title,
    action,
    assumed,
    source,
    text: assumed
      ? `Applied to: ${job.title} (assumed: ${WHY[source as keyof typeof WHY]})`
      : `Applied to: ${job.title}`,
    change_candidates: others
      .filter((o) => o.job_id !== job.job_id)
      .slice(0, 5)
      .map((o) => ({ job_id: o.job_id, title: o.title })),
  };
}

/** "“A” or “B”", "“A”, “B” or “C”". */
export function joinOr(titles: readonly string[]): string {
  const q = titles.map(quoteTitle);
  return q.length <= 1 ? (q[0] ?? "") : `${q.slice(0, -1).join(", ")} or ${q[q.length - 1]}`;
}
