import type { TPolicySettings } from "../../../contracts/admin.js";
import type { PolicyPack } from "./pack.js";
import { ZPolicyOverridesSpec, type PolicyOverridesSpec } from "./rules/overrides.js";
import type { PolicyMode, PolicyOverrides } from "./types.js";

/** The pack's `policy_overrides` rule (what a workspace may change), if the pack has one. */
export function overridesSpecOf(pack: PolicyPack): PolicyOverridesSpec | undefined {
  for (const p of pack.policies)
    for (const r of p.rules) if (r.type === "policy_overrides") return ZPolicyOverridesSpec.parse(r);
  return undefined;
}

interface SettingsInput {
  pack: PolicyPack;
  spec: PolicyOverridesSpec | undefined;
  /** The mode before the workspace's own overrides (the pack's, or a runtime setting). */
  baseMode(policyId: string): PolicyMode;
  deploymentParams: Readonly<Record<string, number>>;
  overrides: PolicyOverrides | undefined;
}

/** Every policy and tunable parameter as the Policies screen shows them, for one workspace. */
export function policySettings(input: SettingsInput): TPolicySettings {
  const { pack, spec, overrides } = input;
  const policies = pack.policies.map((p) => {
    const packMode = input.baseMode(p.policy_id);
    const allowed = spec?.tenant_may_set[p.policy_id];
    return {
      policy_id: p.policy_id,
      code: p.on_violation.action === "reject" ? p.on_violation.code : null,
      applies_to: p.applies_to,
      pack_mode: packMode,
      mode: overrides?.modes.get(p.policy_id) ?? packMode,
      allowed_modes: allowed ? [...new Set([packMode, ...allowed])] : [packMode],
      locked: !allowed,
    };
  });
  const params: TPolicySettings["params"] = [];
  for (const p of pack.policies) {
    for (const r of p.rules as Array<Record<string, unknown>>) {
      const name = r.param;
      const range = typeof name === "string" ? spec?.params[name] : undefined;
      if (typeof name !== "string" || !range || params.some((x) => x.name === name)) continue;
      const fallback = typeof r.max_age_seconds === "number" ? r.max_age_seconds : range.min;
      const def = input.deploymentParams[name] ?? fallback;
      params.push({
        name,
        policy_id: p.policy_id,
        default_value: def,
        value: overrides?.params.get(name) ?? def,
        min: range.min,
        max: range.max,
      });
    }
  }
  return { pack_id: pack.policy_pack_id, pack_version: pack.version, policies, params };
}
