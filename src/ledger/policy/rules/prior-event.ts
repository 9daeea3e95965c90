import { z } from "zod";
import { fieldPath } from "../paths.js";
import type { RuleContext, RuleType } from "../rule.js";

/**
 * Prior events the fold remembers, by key: what a rule can match against without payloads.
 * Each gives the prior event's values for the fields a pack may `match_on`, plus its time.
 */
interface PriorIndex {
  key: string;
  lookup(ctx: RuleContext, key: string): { fields: Record<string, unknown>; ts_ms: number | undefined } | undefined;
}

const PRIORS: Record<string, PriorIndex> = {
  "tool.called": {
    key: "payload.tool_call_id",
    lookup(ctx, key) {
      const c = ctx.fold.toolCall(ctx.tenantId, key);
      if (!c) return undefined;
      return {
        fields: {
          tenant_id: ctx.tenantId,
          job_id: c.job_id,
          "payload.tool_call_id": key,
          "payload.tool_name": c.tool_name,
          "payload.idempotency_key": c.idempotency_key,
        },
        ts_ms: c.ts_ms,
      };
    },
  },
  "job.created": {
    key: "job_id",
    lookup(ctx, key) {
      const j = ctx.fold.job(ctx.tenantId, key);
      if (!j) return undefined;
      return {
        fields: {
          tenant_id: ctx.tenantId,
          job_id: key,
          conversation_id: j.conversation_id,
          "payload.owner_entity_id": j.owner_entity_id,
        },
        ts_ms: undefined,
      };
    },
  },
  "conversation.created": {
    key: "conversation_id",
    lookup(ctx, key) {
      return ctx.fold.hasConversation(ctx.tenantId, key)
        ? { fields: { tenant_id: ctx.tenantId, conversation_id: key }, ts_ms: undefined }
        : undefined;
    },
  },
};

function compileMatch(rule: string, priorType: string, matchOn: string[]) {
  const prior = PRIORS[priorType];
  if (!prior) throw new Error(`${rule}: the fold remembers no ${priorType} (have: ${Object.keys(PRIORS).join(", ")})`);
  if (!matchOn.includes(prior.key))
    throw new Error(`${rule}: match_on must include ${prior.key}, the key of ${priorType}`);
  const keyF = fieldPath(prior.key);
  const others = matchOn.filter((f) => f !== prior.key).map(fieldPath);
  return { prior, keyF, others };
}

const base = { note: z.string().optional(), event_types: z.array(z.string()).optional() };

/** A prior event of `prior_event_type` must exist with the same values for every `match_on` field. */
export const requirePriorEvent: RuleType<{ prior_event_type: string; match_on: string[] }> = {
  schema: z.strictObject({
    type: z.literal("require_prior_event"),
    prior_event_type: z.string(),
    match_on: z.array(z.string()).min(1),
    ...base,
  }),
  shape: false,
  compile(spec) {
    const { prior, keyF, others } = compileMatch("require_prior_event", spec.prior_event_type, spec.match_on);
    return (ctx) => {
      const key = keyF.get(ctx.event);
      const found = typeof key === "string" ? prior.lookup(ctx, key) : undefined;
      if (!found) return `no prior ${spec.prior_event_type} with this ${keyF.path}`;
      for (const f of others) {
        if (f.get(ctx.event) !== found.fields[f.path])
          return `${f.path} differs from the prior ${spec.prior_event_type}`;
      }
      return null;
    };
  },
};

/** The event's `ts` must not be earlier than the matching prior event's. */
export const monotonicTime: RuleType<{ prior_event_type: string; match_on: string[]; require_ts_gte: boolean }> = {
  schema: z.strictObject({
    type: z.literal("monotonic_time"),
    prior_event_type: z.string(),
    match_on: z.array(z.string()).min(1),
    require_ts_gte: z.boolean(),
    ...base,
  }),
  shape: false,
  compile(spec) {
    const { prior, keyF } = compileMatch("monotonic_time", spec.prior_event_type, spec.match_on);
    return (ctx) => {
      if (!spec.require_ts_gte) return null;
      const key = keyF.get(ctx.event);
      const found = typeof key === "string" ? prior.lookup(ctx, key) : undefined;
      if (!found || found.ts_ms === undefined) return null; // pairing is require_prior_event's job
      const ts = Date.parse(String(ctx.event.ts));
      return ts >= found.ts_ms ? null : `ts is earlier than the prior ${spec.prior_event_type}`;
    };
  },
};
