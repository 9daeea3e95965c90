import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { EVENT_PAYLOADS } from "../../../contracts/events.js";
import { createFold } from "../../../src/ledger/fold.js";
import { createPolicyEngine, loadPolicyPack } from "../../../src/ledger/policy/index.js";
import type { PolicyMode } from "../../../src/ledger/policy/types.js";

/**
 * The engine works out once per event type which policies apply and reads a tenant's mode
 * overrides once per check. A warm engine (everything cached, modes changed after caching) must
 * give exactly the verdicts of a fresh engine per event, which computes them from scratch.
 */
const pack = loadPolicyPack();
const policyIds = createPolicyEngine(pack).policyIds;
const TENANTS = ["ten_a", "ten_b", ""];
const types = [...Object.keys(EVENT_PAYLOADS), "no.such_type", "toString", "__proto__"];

const arbEvent = fc.record({
  event_id: fc.constantFrom("evt_1", "evt_2", "evt_3"),
  ts: fc.constantFrom("2026-01-05T09:00:00.000Z", "not a time"),
  tenant_id: fc.constantFrom(...TENANTS),
  trace_id: fc.constant("trc_1"),
  conversation_id: fc.constantFrom("cnv_workspace", "cnv_1"),
  actor: fc.record({
    entity_id: fc.constantFrom("system", "ent_1"),
    actor_type: fc.constantFrom("human", "agent", "system"),
  }),
  event_type: fc.constantFrom(...types),
  payload: fc.oneof(
    fc.record({
      message_id: fc.constant("msg_1"),
      kind: fc.constantFrom("text", "card"),
      body_text: fc.constantFrom("hi", "mail me at a@b.example"),
    }),
    fc.record({
      entity_id: fc.constant("ent_1"),
      actor_type: fc.constant("human"),
      display_name: fc.constant("A"),
      roles: fc.constant(["member"]),
    }),
    fc.constant({}),
  ),
});
const arbMode = fc.record({
  tenant: fc.constantFrom(...TENANTS),
  policy: fc.constantFrom(...policyIds),
  mode: fc.constantFrom<PolicyMode>("enforce", "warn", "off"),
});

describe("policy dispatch", () => {
  it("a warm engine gives the verdicts of a fresh one, as modes change between events", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.option(arbMode), arbEvent), { minLength: 1, maxLength: 40 }), (steps) => {
        const warm = createPolicyEngine(pack);
        const fold = createFold();
        const modes: { tenant: string; policy: string; mode: PolicyMode }[] = [];
        for (const [m, event] of steps) {
          if (m) modes.push(m), warm.setTenantMode(m.tenant, m.policy, m.mode);
          const cold = createPolicyEngine(pack);
          for (const x of modes) cold.setTenantMode(x.tenant, x.policy, x.mode);
          const got = warm.check(fold, event);
          expect(got).toEqual(cold.check(fold, event));
          for (const w of got.warnings) expect(warm.modeOf(event.tenant_id, w.policy_id as string)).toBe("warn");
          if (got.ok) fold.apply(got.event);
        }
      }),
      { numRuns: 150 },
    );
  });
});
