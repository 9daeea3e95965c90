import { EVENT_PAYLOADS, ZUblEvent } from "../../../contracts/events.js";
import type { PolicyPack, PolicySpec } from "./pack.js";
import { asPolicyFold, type RuleCheck, type RuleContext } from "./rule.js";
import { RULE_TYPES } from "./rules/index.js";
import { ZEmitOnReject, type EmitOnRejectSpec } from "./rules/emit.js";
import { schemaViolation, type SchemaPolicies } from "./schema-gate.js";
import type { LedgerFold, PackPolicyEngine, PolicyDecision, PolicyFold, PolicyMode, PolicyViolation } from "./types.js";
import { buildViolationEvent } from "./violation-event.js";
import { fastParseEvent } from "./fast-event.js";
import { overridesSpecOf, policySettings } from "./settings.js";

interface CompiledRule {
  eventTypes: ReadonlySet<string> | undefined;
  check: RuleCheck;
}

interface CompiledPolicy {
  id: string;
  mode: PolicyMode;
  /** null for emit-only policies, which never refuse. */
  code: string | null;
  appliesTo(eventType: string): boolean;
  rules: CompiledRule[];
  /** Made only of rules that read the event alone: runs before the schema gate, on the raw event. */
  shape: boolean;
}

export interface PolicyEngineOptions {
  /** Initial per-tenant overrides: tenant → policy → mode. */
  tenantModes?: Record<string, Record<string, PolicyMode>>;
  /** Deployment parameters rules may name, overriding the pack's value (e.g. `message_edit_window_seconds`). */
  params?: Readonly<Record<string, number>>;
}

function matcher(appliesTo: readonly string[]): (t: string) => boolean {
  if (appliesTo.includes("*")) return () => true;
  const exact = new Set(appliesTo.filter((a) => !a.endsWith(".*")));
  const prefixes = appliesTo.filter((a) => a.endsWith(".*")).map((a) => a.slice(0, -1));
  return (t) => exact.has(t) || prefixes.some((p) => t.startsWith(p));
}

function compilePolicy(
  p: PolicySpec,
  defaultMode: PolicyMode,
  params: Readonly<Record<string, number>>,
  policyIds: readonly string[],
): CompiledPolicy {
  const rules: CompiledRule[] = [];
  let shape = true;
  p.rules.forEach((spec, i) => {
    const where = `${p.policy_id} rules[${i}] (${spec.type})`;
    const type = RULE_TYPES[spec.type];
    if (!type) throw new Error(`${where}: unknown rule type (known: ${Object.keys(RULE_TYPES).join(", ")})`);
    const parsed = type.schema.safeParse(spec);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${where}: ${issue?.path.join(".") || "rule"}: ${issue?.message}`);
    }
    let check: RuleCheck;
    try {
      check = type.compile(parsed.data, { siblings: p.rules, params, policyIds });
    } catch (e) {
      throw new Error(`${where}: ${(e as Error).message}`);
    }
    const et = (spec as { event_types?: string[] }).event_types;
    rules.push({ eventTypes: et ? new Set(et) : undefined, check });
    if (!type.shape) shape = false;
  });
  return {
    id: p.policy_id,
    mode: p.mode ?? defaultMode,
    code: p.on_violation.action === "reject" ? p.on_violation.code : null,
    appliesTo: matcher(p.applies_to),
    rules,
    shape,
  };
}

/**
 * What the rules of one check see. A class, so that `param` is one method on the prototype
 * rather than a closure made per event (100 per batch on the append path).
 */
class CheckContext implements RuleContext {
  constructor(
    public event: Record<string, unknown>,
    readonly eventType: string,
    readonly tenantId: string,
    readonly fold: PolicyFold,
    readonly actorId: string | undefined,
    readonly actorType: string | undefined,
    private readonly params: Readonly<Record<string, number>>,
  ) {}

  param(name: string): number | undefined {
    return this.fold.policyOverrides(this.tenantId)?.params.get(name) ?? this.params[name];
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Builds the rule engine for a pack. Order of a check: policies made only of shape rules (the
 * envelope, schema refinements) on the raw event; then the event-type and contract gate
 * (`ZUblEvent`); then every other policy in pack order, reading the fold. The first refusal
 * of an `enforce` policy ends the check; `warn` policies add warnings; `off` ones are skipped.
 */
export function createPolicyEngine(pack: PolicyPack, opts: PolicyEngineOptions = {}): PackPolicyEngine {
  const params = opts.params ?? {};
  const ids = pack.policies.map((p) => p.policy_id);
  const policies = pack.policies.map((p) => compilePolicy(p, pack.default_mode, params, ids));
  const overridesSpec = overridesSpecOf(pack);
  const byId = new Map(policies.map((p) => [p.id, p]));
  const shapePolicies = policies.filter((p) => p.shape && p.code !== null);
  const foldPolicies = policies.filter((p) => !p.shape && p.code !== null);

  const emitPolicy = pack.policies.find((p) => p.rules.some((r) => r.type === "emit_on_reject"));
  const emitSpec: EmitOnRejectSpec | undefined = emitPolicy
    ? ZEmitOnReject.parse(emitPolicy.rules.find((r) => r.type === "emit_on_reject"))
    : undefined;

  const policyForCode = (code: string) => policies.find((p) => p.code === code)?.id ?? null;
  const schemaIds: SchemaPolicies = {
    envelope: policyForCode("INVALID_ENVELOPE"),
    message: policyForCode("INVALID_MESSAGE_SCHEMA"),
    job: policyForCode("INVALID_JOB_SCHEMA"),
  };

  const tenantModes = new Map<string, Map<string, PolicyMode>>();
  for (const [t, m] of Object.entries(opts.tenantModes ?? {}))
    for (const [pid, mode] of Object.entries(m)) setTenantMode(t, pid, mode);

  function setTenantMode(tenantId: string, policyId: string, mode: PolicyMode): void {
    if (!byId.has(policyId)) throw new Error(`unknown policy ${policyId}`);
    let m = tenantModes.get(tenantId);
    if (!m) tenantModes.set(tenantId, (m = new Map()));
    m.set(policyId, mode);
  }

  /** The mode before the workspace's own overrides: a runtime setting, else the pack's. */
  function baseMode(tenantId: string | undefined, policyId: string): PolicyMode {
    const override = tenantId === undefined ? undefined : tenantModes.get(tenantId)?.get(policyId);
    return override ?? byId.get(policyId)?.mode ?? "off";
  }
  function modeOf(tenantId: string | undefined, policyId: string): PolicyMode {
    const own =
      tenantId === undefined || !lastFold
        ? undefined
        : asPolicyFold(lastFold).policyOverrides(tenantId)?.modes.get(policyId);
    return own ?? baseMode(tenantId, policyId);
  }

  /** Runs one policy: its first failing rule is its violation. */
  function run(p: CompiledPolicy, ctx: RuleContext): PolicyViolation | null {
    for (const r of p.rules) {
      if (r.eventTypes && !r.eventTypes.has(ctx.eventType)) continue;
      const msg = r.check(ctx);
      if (msg !== null) return { policy_id: p.id, code: p.code as string, message_safe: msg.slice(0, 500) };
    }
    return null;
  }

  let lastFold: LedgerFold | undefined;

  // The pack's mode of each policy as `modeOf` reads it (through byId, so a repeated id behaves alike).
  const packMode = new Map(policies.map((p) => [p, byId.get(p.id)?.mode ?? ("off" as PolicyMode)]));

  // Which policies of a list apply to an event type never changes, so it is worked out once per
  // known type rather than per event and policy. Only contract event types are kept: the shape
  // policies also see whatever event_type a request claims, and that must not grow a cache.
  const applicable = new Map<CompiledPolicy[], Map<string, CompiledPolicy[]>>([
    [shapePolicies, new Map()],
    [foldPolicies, new Map()],
  ]);
  function applying(list: CompiledPolicy[], eventType: string): CompiledPolicy[] {
    const known = Object.hasOwn(EVENT_PAYLOADS, eventType);
    const cache = applicable.get(list);
    let out = known ? cache?.get(eventType) : undefined;
    if (!out) {
      out = list.filter((p) => p.appliesTo(eventType));
      if (known) cache?.set(eventType, out);
    }
    return out;
  }

  /** Runs a list of policies in order: the first enforced violation, else null (warnings collected). */
  function runAll(list: CompiledPolicy[], ctx: RuleContext, warnings: PolicyViolation[]): PolicyViolation | null {
    // Same as modeOf(ctx.tenantId, p.id) per policy, with the tenant's overrides looked up once:
    // the workspace's own (policy.overrides_set, in the fold) win over a runtime setting.
    const own = ctx.fold.policyOverrides(ctx.tenantId)?.modes;
    const overrides = tenantModes.get(ctx.tenantId);
    for (const p of applying(list, ctx.eventType)) {
      const mode = own?.get(p.id) ?? overrides?.get(p.id) ?? (packMode.get(p) as PolicyMode);
      if (mode === "off") continue;
      const v = run(p, ctx);
      if (!v) continue;
      if (mode === "enforce") return v;
      warnings.push(v);
    }
    return null;
  }

  function check(fold: LedgerFold, raw: unknown): PolicyDecision {
    lastFold = fold;
    const warnings: PolicyViolation[] = [];
    if (!isObject(raw)) {
      return {
        ok: false,
        violation: {
          policy_id: schemaIds.envelope,
          code: "INVALID_ENVELOPE",
          message_safe: "an event must be a JSON object",
        },
        warnings,
      };
    }
    const eventType = typeof raw.event_type === "string" ? raw.event_type : "";
    const tenantId = typeof raw.tenant_id === "string" ? raw.tenant_id : "";
    const actor = isObject(raw.actor) ? raw.actor : undefined;
    const ctx = new CheckContext(
      raw,
      eventType,
      tenantId,
      asPolicyFold(fold),
      typeof actor?.entity_id === "string" ? actor.entity_id : undefined,
      typeof actor?.actor_type === "string" ? actor.actor_type : undefined,
      params,
    );

    const shapeRefusal = runAll(shapePolicies, ctx, warnings);
    if (shapeRefusal) return { ok: false, violation: shapeRefusal, warnings };

    if (!Object.hasOwn(EVENT_PAYLOADS, eventType)) {
      return {
        ok: false,
        violation: {
          policy_id: null,
          code: "UNKNOWN_EVENT_TYPE",
          message_safe: "event_type is not a known event type",
        },
        warnings,
      };
    }
    // A plain chat message is checked by hand (same result, tested); anything else, or anything
    // the fast path is unsure of, goes through the contract parse, which alone refuses.
    let event = fastParseEvent(raw);
    if (!event) {
      const parsed = ZUblEvent.safeParse(raw);
      if (!parsed.success)
        return { ok: false, violation: schemaViolation(eventType, parsed.error.issues, schemaIds), warnings };
      event = parsed.data;
    }

    ctx.event = event;
    const refusal = runAll(foldPolicies, ctx, warnings);
    if (refusal) return { ok: false, violation: refusal, warnings };
    return { ok: true, event, warnings };
  }

  return {
    check,
    setTenantMode,
    modeOf,
    policyIds: policies.map((p) => p.id),
    settings(fold, tenantId) {
      return policySettings({
        pack,
        spec: overridesSpec,
        baseMode: (id) => baseMode(tenantId, id),
        deploymentParams: params,
        overrides: asPolicyFold(fold).policyOverrides(tenantId),
      });
    },
    packId: pack.policy_pack_id,
    packVersion: pack.version,
    violationEvent(raw, violation, ctx) {
      if (!emitPolicy || !emitSpec) return null;
      const tenantId = isObject(raw) && typeof raw.tenant_id === "string" ? raw.tenant_id : ctx.tenant_id;
      if (modeOf(tenantId, emitPolicy.policy_id) === "off") return null;
      return buildViolationEvent(raw, violation, { ...ctx, fold: ctx.fold ?? lastFold }, emitSpec);
    },
  };
}
