import { z } from "zod";
import { JOB_STATES } from "../../../../contracts/primitives.js";
import { jobIdOf, type RuleType } from "../rule.js";

/** The event's job must exist and be in one of `allowed` states (read from the fold). */
export const requireJobStateIn: RuleType<{ allowed: string[] }> = {
  schema: z.strictObject({
    type: z.literal("require_job_state_in"),
    allowed: z.array(z.enum(JOB_STATES)).min(1),
    job_state_source: z.enum(["projection_or_fold", "fold"]).optional(),
    note: z.string().optional(),
    event_types: z.array(z.string()).optional(),
  }),
  shape: false,
  compile(spec) {
    const allowed = new Set(spec.allowed);
    return (ctx) => {
      const jobId = jobIdOf(ctx.event);
      if (!jobId) return `${ctx.eventType} needs a job_id`;
      const state = ctx.fold.jobState(ctx.tenantId, jobId);
      if (state === undefined) return "job_id does not name a job of this tenant";
      return allowed.has(state) ? null : `${ctx.eventType} is not allowed while the job is ${state} (allowed: ${spec.allowed.join(", ")})`;
    };
  },
};
