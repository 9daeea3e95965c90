import type { TCardActionType } from "../../../contracts/cards.js";
import type { TJobState } from "../../../contracts/primitives.js";
import type { PlanJobRef } from "../planner/planner.js";
import type { ActionSummary } from "./types.js";
import type { TargetSource } from "./thread-context.js";

/** Which clicks a job accepts in each state; mirrors Office's job machine (the executor re-checks). */
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

export type IsActionAllowed = (state: string, action: TCardActionType) => boolean;

export const defaultIsActionAllowed: IsActionAllowed = (state, action) =>
  (ACTIONS_BY_STATE as Record<string, TCardActionType[] | undefined>)[state]?.includes(action) ?? false;

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
    text: assumed ? `Applied to: ${job.title} (assumed: ${WHY[source as keyof typeof WHY]})` : `Applied to: ${job.title}`,
    change_candidates: others.filter((o) => o.job_id !== job.job_id).slice(0, 5).map((o) => ({ job_id: o.job_id, title: o.title })),
  };
}

/** "“A” or “B”", "“A”, “B” or “C”". */
export function joinOr(titles: readonly string[]): string {
  const q = titles.map(quoteTitle);
  return q.length <= 1 ? (q[0] ?? "") : `${q.slice(0, -1).join(", ")} or ${q[q.length - 1]}`;
}
