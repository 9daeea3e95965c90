import type { TCardActionType } from "../../../contracts/cards.js";
import type { PlanJobRef } from "../planner/planner.js";
import type { LlmDecision } from "./decide.js";
import { buildActionSummary } from "./target-labels.js";
import { opSlots } from "./token-check.js";
import type { OpToken } from "./tokens.js";

/**
 * A person's `[op …]` token (a quick action, a surface button) is a click: already exact, so it
 * becomes the decision as such, with no model asked to restate it. Shared by both planners.
 */
export function decisionFromOp(
  op: OpToken,
  llmText: string,
  jobs: ReadonlyMap<string, PlanJobRef>,
  offered: readonly PlanJobRef[],
): LlmDecision {
  const job = jobs.get(op.job)!;
  const summary = buildActionSummary(job, op.type, "token", offered);
  const note = llmText.replace(/\[(ref|op)#\d+\]/g, "").trim();
  if (op.type === "provide_input") {
    return {
      type: "continue_job",
      job_id: job.job_id,
      slots: opSlots(op),
      ...(note ? { text: note } : {}),
      llm: { outcome: "executed", action_summary: summary, dropped: [] },
    };
  }
  return {
    type: "job_action",
    job_id: job.job_id,
    action: `job.${op.type}` as TCardActionType,
    ...(Object.keys(op.args).length ? { args: op.args } : {}),
    ...(note ? { text: note } : {}),
    llm: { outcome: "executed", action_summary: summary, dropped: [] },
  };
}
