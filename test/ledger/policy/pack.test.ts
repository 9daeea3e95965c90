import { describe, expect, it } from "vitest";
import { createPolicyEngine, parsePolicyPack, RULE_TYPES, type PolicyPack } from "../../../src/ledger/policy/index.js";
import { PACK, at, expectPasses } from "./helpers.js";

const withRule = (policyId: string, rule: Record<string, unknown>): PolicyPack => {
  const json = structuredClone(PACK);
  json.policies.find((p) => p.policy_id === policyId)!.rules.push(rule as never);
  return parsePolicyPack(json);
};

describe("the pack is data", () => {
  it("uses every rule type the engine implements, and the seed's seventeen", () => {
    const used = new Set(PACK.policies.flatMap((p) => p.rules.map((r) => r.type)));
    const seed = [
      "require_fields",
      "require_actor_type_in",
      "enforce_tenant_scope",
      "unique_per_tenant",
      "require_in",
      "require_if",
      "lock_mapping_on_first_seen",
      "fsm",
      "require_conversation_membership",
      "allow_if",
      "require_button_provenance",
      "require_prior_event",
      "monotonic_time",
      "require_job_state_in",
      "reject_if_regex_match",
      "allow_if_present",
      "emit_on_reject",
    ];
    for (const t of seed) expect(used.has(t), t).toBe(true);
    expect([...used].sort()).toEqual(Object.keys(RULE_TYPES).sort());
  });

  it("a new rule of an existing type needs no code (a blocked word in chat)", () => {
    const engine = createPolicyEngine(
      withRule("policy.message_schema", {
        type: "reject_if_regex_match",
        paths: ["payload.body_text"],
        patterns: ["\\bpassword\\b"],
        flags: "i",
        label: "password",
      }),
    );
    const { fold, event } = at("evt_0001");
    expectPasses(engine, fold, event);
    event.payload.body_text = "my Password is hunter2";
    expect(engine.check(fold, event)).toMatchObject({
      ok: false,
      violation: { policy_id: "policy.message_schema", message_safe: "Raw password detected in payload.body_text" },
    });
  });

  it("a new policy needs no code either (humans may not send system messages)", () => {
    const json = structuredClone(PACK);
    json.policies.splice(1, 0, {
      policy_id: "policy.system_messages",
      applies_to: ["message.sent"],
      rules: [
        {
          type: "allow_if",
          event_types: ["message.sent"],
          when: { field: "payload.kind", eq: "system" },
          condition: { actor_type_in: ["system", "agent"] },
        },
      ],
      on_violation: { action: "reject", code: "UNAUTHORIZED_ACTION" },
    } as never);
    const engine = createPolicyEngine(parsePolicyPack(json));
    const { fold, event } = at("evt_0001");
    event.payload.kind = "system";
    expect(engine.check(fold, event)).toMatchObject({
      ok: false,
      violation: { policy_id: "policy.system_messages", code: "UNAUTHORIZED_ACTION" },
    });
  });

  it.each([
    ["an unknown rule type", { type: "require_vibes" }, /unknown rule type/],
    ["a typo in a rule's settings", { type: "require_fields", feilds: ["x"] }, /Unrecognized key|fields/],
    ["a uniqueness the fold cannot index", { type: "unique_per_tenant", field: "payload.message_id" }, /no fold index/],
    [
      "a bad condition",
      { type: "allow_if", event_types: ["message.sent"], condition: { actor_is_nice: true } },
      /unknown condition key/,
    ],
    [
      "a fold-reading condition in require_if",
      { type: "require_if", if: { actor_has_role: "admin" }, then_require: ["x"] },
      /only test fields/,
    ],
    ["a bad path", { type: "require_fields", fields: ["payload..x"] }, /invalid field path/],
  ])("refuses to load %s", (_, rule, message) => {
    expect(() => createPolicyEngine(withRule("policy.message_schema", rule))).toThrow(message);
  });

  it("refuses a code the error table does not know (it would have no HTTP status)", () => {
    const json = structuredClone(PACK) as any;
    json.policies[0].on_violation.code = "MADE_UP_CODE";
    expect(() => parsePolicyPack(json)).toThrow(/ERROR_STATUS/);
  });

  it("refuses duplicate policy ids", () => {
    const json = structuredClone(PACK);
    json.policies.push(structuredClone(json.policies[0]!));
    expect(() => parsePolicyPack(json)).toThrow(/duplicate policy_id/);
  });

  it("every refinement of the seed's pack says why", () => {
    const text = JSON.stringify(PACK);
    expect(text.match(/"note":/g)?.length ?? 0).toBeGreaterThan(20);
    for (const p of PACK.policies) {
      const seedPolicies = [
        "policy.envelope_required_fields",
        "policy.tenant_isolation",
        "policy.event_id_uniqueness",
        "policy.message_schema",
        "policy.job_schema",
        "policy.job_conversation_lock",
        "policy.job_fsm",
        "policy.job_authority",
        "policy.card_provenance",
        "policy.tool_pairing",
        "policy.tool_only_during_work",
        "policy.no_raw_pii",
        "policy.policy_violation_event",
      ];
      if (!seedPolicies.includes(p.policy_id))
        expect(p.note, `${p.policy_id} is not the seed's: it needs a note`).toBeTruthy();
    }
  });
});
