import { z } from "zod";
import type { RuleType } from "../rule.js";

export const ZEmitOnReject = z.strictObject({
  type: z.literal("emit_on_reject"),
  emit_event_type: z.literal("policy.violation"),
  /** `{{policy_id}}`, `{{code}}`, `{{event_type}}`, `{{event_id}}`, `{{message_safe}}`, `{{mode}}`. */
  payload_template: z.record(z.string(), z.string()),
  /** Who signs the violation event (a system actor). */
  actor_entity_id: z.string().min(1).optional(),
  note: z.string().optional(),
  event_types: z.array(z.string()).optional(),
});
export type EmitOnRejectSpec = z.infer<typeof ZEmitOnReject>;

/** Says what to write when another policy refuses (or warns); it never refuses anything itself. */
export const emitOnReject: RuleType<EmitOnRejectSpec> = {
  schema: ZEmitOnReject,
  shape: true,
  compile: () => () => null,
};
