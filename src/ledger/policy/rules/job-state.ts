import { z } from "zod";
import { JOB_STATES } from "../../../../contracts/primitives.js";
import { compileCondition } from "../conditions.js";
import { jobIdOf, type RuleType } from "../rule.js";

/** The event's job must exist and be in one of `allowed` states (read from the fold); only when `when` holds, if given. */
export const requireJobStateIn: RuleType<{ allowed: string[]; when?: unknown }> = {
  schema: z.strictObject({
    type: z.literal("require_job_state_in"),
    allowed: z.array(z.enum(JOB_STATES)).min(1),
    job_state_source: z.enum(["projection_or_fold", "fold"]).optional(),
    note: z.string().optional(),
    event_types: z.array(z.string()).optional(),
    when: z.record(z.string(), z.unknown()).optional(),
  }),
  shape: false,
  compile(spec) {
    const allowed = new Set(spec.allowed);
    const when = spec.when ? compileCondition(spec.when, "require_job_state_in.when") : undefined;
    return (ctx) => {
      if (when && !when.test(ctx)) return null;
      const jobId = jobIdOf(ctx.event);
      if (!jobId) return `${ctx.eventType} needs a job_id`;
      const state = ctx.fold.jobState(ctx.tenantId, jobId);
      if (state === undefined) return "job_id does not name a job of this tenant";
      return allowed.has(state)
        ? null
        : `${ctx.eventType} is not allowed while the job is ${state} (allowed: ${spec.allowed.join(", ")})`;
    };
  },
};
