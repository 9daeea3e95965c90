import { z } from "zod";
import { fieldPath } from "../paths.js";
import { jobIdOf, type RuleType } from "../rule.js";

/**
 * Once `key` is first seen its `lock_field` is fixed: every later event naming the key must
 * carry the same value. The fold keeps the job → conversation lock (set by `job.created`).
 */
export const lockMappingOnFirstSeen: RuleType<{ key: string; lock_field: string }> = {
  schema: z.strictObject({
    type: z.literal("lock_mapping_on_first_seen"),
    key: z.string(),
    lock_field: z.string(),
    note: z.string().optional(),
    event_types: z.array(z.string()).optional(),
  }),
  shape: false,
  compile(spec) {
    if (spec.key !== "job_id" || spec.lock_field !== "conversation_id") {
      throw new Error("lock_mapping_on_first_seen: the fold locks job_id → conversation_id only");
    }
    const lock = fieldPath(spec.lock_field);
    return (ctx) => {
      const jobId = jobIdOf(ctx.event);
      if (!jobId) return null;
      const locked = ctx.fold.jobConversation(ctx.tenantId, jobId);
      if (locked === undefined || locked === lock.get(ctx.event)) return null;
      return `${lock.path} differs from the conversation the job was created in`;
    };
  },
};
