import type { z } from "zod";
import type { PolicyViolation } from "./types.js";

export interface SchemaPolicies {
  envelope: string | null;
  message: string | null;
  job: string | null;
}

/**
 * Maps a contract parse failure to the pack's vocabulary: envelope problems are
 * INVALID_ENVELOPE, a `message.sent` payload INVALID_MESSAGE_SCHEMA, a `job.*` payload
 * INVALID_JOB_SCHEMA, anything else VALIDATION_ERROR. The message names the path and what was
 * expected (zod's messages never quote the input), never the offending value.
 */
export function schemaViolation(
  eventType: string,
  issues: ReadonlyArray<z.core.$ZodIssue>,
  ids: SchemaPolicies,
): PolicyViolation {
  const first = issues[0];
  const path = first
    ? first.path
        .map((s) => (typeof s === "number" ? `[${s}]` : String(s)))
        .join(".")
        .replace(/\.\[/g, "[")
    : "";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  const detail = `${path || "event"}: ${first?.message ?? "invalid"}${more}`.slice(0, 480);
  if (first?.path[0] === "payload") {
    if (eventType === "message.sent")
      return {
        policy_id: ids.message,
        code: "INVALID_MESSAGE_SCHEMA",
        message_safe: `Invalid message.sent payload at ${detail}`,
      };
    if (eventType.startsWith("job."))
      return {
        policy_id: ids.job,
        code: "INVALID_JOB_SCHEMA",
        message_safe: `Invalid ${eventType} payload at ${detail}`,
      };
    return { policy_id: null, code: "VALIDATION_ERROR", message_safe: `Invalid ${eventType} payload at ${detail}` };
  }
  return { policy_id: ids.envelope, code: "INVALID_ENVELOPE", message_safe: `Invalid event envelope at ${detail}` };
}
