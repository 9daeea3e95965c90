import { z } from "zod";
import { compileCondition } from "../conditions.js";
import { fieldPath } from "../paths.js";
import type { RuleType } from "../rule.js";

/** The entity at `actor_field` must be a member of the conversation at `conversation_field`. */
export const requireConversationMembership: RuleType<{
  actor_field: string;
  conversation_field: string;
  exempt_actor_types?: string[] | undefined;
  optional?: boolean | undefined;
}> = {
  schema: z.strictObject({
    type: z.literal("require_conversation_membership"),
    actor_field: z.string(),
    conversation_field: z.string(),
    /** Actor types not held to membership (only when actor_field is the actor). */
    exempt_actor_types: z.array(z.string()).optional(),
    /** An event without a conversation at conversation_field passes (a forward's source is optional). */
    optional: z.boolean().optional(),
    note: z.string().optional(),
    event_types: z.array(z.string()).optional(),
  }),
  shape: false,
  compile(spec) {
    const who = fieldPath(spec.actor_field);
    const where = fieldPath(spec.conversation_field);
    const isActor = spec.actor_field === "actor.entity_id";
    const exempt = new Set(spec.exempt_actor_types ?? []);
    return (ctx) => {
      if (isActor && exempt.has(String(ctx.actorType))) return null;
      const entity = who.get(ctx.event);
      const conv = where.get(ctx.event);
      if (conv === undefined && spec.optional) return null;
      if (typeof entity === "string" && typeof conv === "string" && ctx.fold.isMember(ctx.tenantId, conv, entity))
        return null;
      return `${who.path} is not a member of the conversation at ${where.path}`;
    };
  },
};

/** For `event_types` (and when `when` holds), the event is allowed only if `condition` holds. */
export const allowIf: RuleType<{ event_types: string[]; condition: unknown; when?: unknown }> = {
  schema: z.strictObject({
    type: z.literal("allow_if"),
    event_types: z.array(z.string()).min(1),
    condition: z.record(z.string(), z.unknown()),
    when: z.record(z.string(), z.unknown()).optional(),
    note: z.string().optional(),
  }),
  shape: false,
  compile(spec) {
    const cond = compileCondition(spec.condition, "allow_if.condition");
    const when = spec.when ? compileCondition(spec.when, "allow_if.when") : undefined;
    return (ctx) => {
      if (when && !when.test(ctx)) return null;
      return cond.test(ctx)
        ? null
        : `${ctx.eventType}${when ? ` (${when.text})` : ""} is allowed only when ${cond.text}`;
    };
  },
};
