import { z } from "zod";
import { fieldPath } from "../paths.js";
import type { RuleContext, RuleType } from "../rule.js";

/**
 * What the fold can answer "seen before?" for. The fold keeps no payloads, so uniqueness is
 * over these indexes; a pack naming another field fails to load (say which, and add it here).
 */
interface UniqueIndex {
  /** Event types the index is about; others pass the rule untouched. */
  eventTypes?: ReadonlySet<string>;
  /** Extra fields the value is unique within (e.g. job + tool for an idempotency key). */
  scope?: readonly string[];
  seen(ctx: RuleContext, value: string): boolean;
}

const INDEXES: Record<string, UniqueIndex> = {
  event_id: { seen: (c, v) => c.fold.hasEvent(c.tenantId, v) },
  "payload.job_id": { eventTypes: new Set(["job.created"]), seen: (c, v) => c.fold.job(c.tenantId, v) !== undefined },
  "payload.conversation_id": {
    eventTypes: new Set(["conversation.created"]),
    seen: (c, v) => c.fold.hasConversation(c.tenantId, v),
  },
  "payload.tool_call_id": {
    eventTypes: new Set(["tool.called"]),
    seen: (c, v) => c.fold.toolCall(c.tenantId, v) !== undefined,
  },
  "payload.idempotency_key": {
    eventTypes: new Set(["tool.called"]),
    scope: ["job_id", "payload.tool_name"],
    seen: (c, v) => {
      const p = c.event.payload as Record<string, unknown>;
      return c.fold.hasToolIdempotencyKey(c.tenantId, c.event.job_id as string | undefined, String(p.tool_name), v);
    },
  },
};

interface Spec {
  field: string;
  scope_fields?: string[] | undefined;
  /** A repeat is allowed when this field names an earlier call with the same key (a retry)… */
  allow_retry_of_field?: string | undefined;
  /** …and this field (the attempt number) is greater than 1. */
  retry_attempt_field?: string | undefined;
}

/** The field's value must not have been seen before in the tenant (within its scope). */
export const uniquePerTenant: RuleType<Spec> = {
  schema: z.strictObject({
    type: z.literal("unique_per_tenant"),
    field: z.string().min(1),
    scope_fields: z.array(z.string()).optional(),
    allow_retry_of_field: z.string().optional(),
    retry_attempt_field: z.string().optional(),
    note: z.string().optional(),
    event_types: z.array(z.string()).optional(),
  }),
  shape: false,
  compile(spec) {
    const index = INDEXES[spec.field];
    if (!index)
      throw new Error(`unique_per_tenant: no fold index for ${spec.field} (have: ${Object.keys(INDEXES).join(", ")})`);
    const scope = spec.scope_fields ?? [];
    if (JSON.stringify([...scope].sort()) !== JSON.stringify([...(index.scope ?? [])].sort())) {
      throw new Error(`unique_per_tenant: ${spec.field} is indexed within [${(index.scope ?? []).join(", ")}]`);
    }
    if (spec.allow_retry_of_field && spec.field !== "payload.idempotency_key") {
      throw new Error("unique_per_tenant: allow_retry_of_field applies to tool idempotency keys only");
    }
    const p = fieldPath(spec.field);
    const retryOf = spec.allow_retry_of_field ? fieldPath(spec.allow_retry_of_field) : undefined;
    const attempt = spec.retry_attempt_field ? fieldPath(spec.retry_attempt_field) : undefined;
    const within = scope.length ? ` within ${scope.join(" + ")}` : "";
    return (ctx) => {
      if (index.eventTypes && !index.eventTypes.has(ctx.eventType)) return null;
      const v = p.get(ctx.event);
      if (typeof v !== "string" || !index.seen(ctx, v)) return null;
      if (retryOf && isRetryOfSameKey(ctx, retryOf.get(ctx.event), v, attempt ? attempt.get(ctx.event) : 2))
        return null;
      return `${p.path} was already used in this tenant${within}`;
    };
  },
};

/** A retry re-uses its key: allowed when it names an earlier call of the same job, tool and key. */
function isRetryOfSameKey(ctx: RuleContext, retryOf: unknown, key: string, attempt: unknown): boolean {
  if (typeof retryOf !== "string") return false;
  if (!(typeof attempt === "number" && attempt > 1)) return false;
  const prior = ctx.fold.toolCall(ctx.tenantId, retryOf);
  const p = ctx.event.payload as Record<string, unknown>;
  return (
    !!prior && prior.idempotency_key === key && prior.job_id === ctx.event.job_id && prior.tool_name === p.tool_name
  );
}
