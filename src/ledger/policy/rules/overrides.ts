import { z } from "zod";
import type { RuleType } from "../rule.js";

const ZMode = z.enum(["enforce", "warn", "off"]);

/**
 * What a workspace may override (`policy.overrides_set`): the policies listed in
 * `tenant_may_set`, each to one of its listed modes, and the parameters in `params`, each a whole
 * number within its range. Everything else keeps the pack's mode: an allowlist, so a policy added
 * to the pack later is locked until someone decides otherwise.
 */
export const ZPolicyOverridesSpec = z.strictObject({
  type: z.literal("policy_overrides"),
  tenant_may_set: z.record(z.string(), z.array(ZMode).min(1)),
  params: z.record(
    z.string(),
    z.strictObject({ min: z.number().int().nonnegative(), max: z.number().int().positive() }),
  ),
  note: z.string().optional(),
  event_types: z.array(z.string()).optional(),
});
export type PolicyOverridesSpec = z.infer<typeof ZPolicyOverridesSpec>;

/** The first reason a set of overrides is refused, or null. Names the policy or parameter, never a value. */
function overridesProblem(spec: PolicyOverridesSpec, policyIds: ReadonlySet<string>, payload: unknown): string | null {
  const p = (payload ?? {}) as { modes?: Record<string, string>; params?: Record<string, number> };
  for (const [id, mode] of Object.entries(p.modes ?? {})) {
    if (!policyIds.has(id)) return `payload.modes.${id} is not a policy of this pack`;
    const allowed = spec.tenant_may_set[id];
    if (!allowed) return `payload.modes.${id} cannot be changed by a workspace`;
    if (!allowed.includes(mode as "enforce")) return `payload.modes.${id} may only be ${allowed.join(", ")}`;
  }
  for (const [name, value] of Object.entries(p.params ?? {})) {
    const range = spec.params[name];
    if (!range) return `payload.params.${name} is not a parameter of this pack`;
    if (!Number.isInteger(value) || value < range.min || value > range.max)
      return `payload.params.${name} must be a whole number from ${range.min} to ${range.max}`;
  }
  return null;
}

export const policyOverrides: RuleType<PolicyOverridesSpec> = {
  schema: ZPolicyOverridesSpec,
  shape: false,
  compile(spec, env) {
    const ids = new Set(env.policyIds);
    for (const id of Object.keys(spec.tenant_may_set))
      if (!ids.has(id)) throw new Error(`tenant_may_set: ${id} is not a policy of this pack`);
    for (const [name, r] of Object.entries(spec.params))
      if (r.min > r.max) throw new Error(`params.${name}: min is above max`);
    return (ctx) => overridesProblem(spec, ids, ctx.event.payload);
  },
};
