import type { Draft } from "../emitter.js";
import { createJobDrafts, type JobDrafts } from "../job-drafts.js";
import { evolve, type JobView } from "../job-machine.js";
import { agentActor } from "../job-drafts.js";
import type { DecideContext, PlannedCall } from "./model.js";

/** The small pure helpers every step of the decider shares. */

export const draftsFor = (ctx: DecideContext): JobDrafts =>
  createJobDrafts({ clock: { iso: () => ctx.now }, ids: ctx.ids });

/** The job as it will be once `drafts` are written (ids and times not yet known). */
export function afterDrafts(job: JobView, drafts: readonly Draft[]): JobView {
  return drafts.reduce<JobView>((j, d) => evolve(j, d) ?? j, job);
}

/** Who approved the job: the person a waiting job waits on. */
export function approverOf(
  job: JobView,
  profileOf: DecideContext["profileOf"],
): Array<{ entity_id: string; display_name: string }> {
  const by = [...job.approvals].reverse().find((a) => a.action === "approved")?.by;
  return by ? [{ entity_id: by, display_name: profileOf(by)?.display_name ?? by }] : [];
}

/**
 * Who a job that needs a person waits on: the person who approved it, else (a job that ran
 * without approval) the person who asked for it. Empty only for a job with neither on record.
 */
export function answererOf(
  job: JobView,
  profileOf: DecideContext["profileOf"],
): Array<{ entity_id: string; display_name: string }> {
  const approver = approverOf(job, profileOf);
  if (approver.length) return approver;
  const asker = job.slots.requested_by;
  return asker ? [{ entity_id: asker, display_name: profileOf(asker)?.display_name ?? asker }] : [];
}

/** Calls of the job that ended UNKNOWN, other than `callId`: an unexplained failure is retried once. */
export const priorUnknowns = (job: JobView, callId: string) =>
  job.tools.filter((t) => t.error_code === "UNKNOWN" && t.tool_call_id !== callId).length;

/** A `tool.result` for `call`: the envelope every tool's outcome shares; `fields` are the rest of its payload. */
export function toolResultDraft(
  job: JobView,
  ctx: DecideContext,
  call: PlannedCall,
  status: "success" | "error",
  latency_ms: number,
  fields: Record<string, unknown>,
  event_id?: string,
): Draft {
  return {
    event_type: "tool.result",
    ...(event_id ? { event_id } : {}),
    actor: agentActor(ctx.agent.entity_id),
    job_id: job.job_id,
    payload: {
      tool_call_id: call.call_id,
      tool_name: call.tool_name,
      status,
      latency_ms,
      ...fields,
      attempt: call.attempt,
    },
  };
}
