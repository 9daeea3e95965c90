import { describe, expect, it } from "vitest";
import { ZUblEvent } from "../../../contracts/events.js";
import { createFold } from "../../../src/ledger/fold.js";
import { createPolicyEngine, parsePolicyPack } from "../../../src/ledger/policy/index.js";
import { PACK, T, at, feed, happy, type Raw } from "./helpers.js";

const withPii = (e: Raw) => {
  e.payload.finished_card.outcome.summary = "Sent to maria@acme.com";
  return e;
};
const retenant = (events: Raw[], tenant: string): Raw[] =>
  JSON.parse(JSON.stringify(events).replaceAll('"tnt_acme_001"', JSON.stringify(tenant)));

describe("policy modes: enforce | warn | off, per policy and per tenant", () => {
  it("enforce (the pack's default) refuses", () => {
    const { engine, fold, event } = at("evt_0012");
    expect(engine.modeOf(T, "policy.no_raw_pii")).toBe("enforce");
    const d = engine.check(fold, withPii(event));
    expect(d.ok).toBe(false);
  });

  it("warn accepts the event and reports the violation; its policy.violation says mode warn", () => {
    const { engine, fold, event } = at("evt_0012");
    engine.setTenantMode(T, "policy.no_raw_pii", "warn");
    const raw = withPii(event);
    const d = engine.check(fold, raw);
    expect(d.ok).toBe(true);
    expect(d.warnings).toEqual([
      {
        policy_id: "policy.no_raw_pii",
        code: "RAW_PII_DETECTED",
        message_safe: "Raw email detected in payload.finished_card.outcome.summary",
      },
    ]);
    const v = engine.violationEvent(raw, d.warnings[0]!, {
      event_id: "evt_pol_w1",
      ts: "2025-12-27T10:16:00.000Z",
      mode: "warn",
    });
    expect(ZUblEvent.parse(v)).toMatchObject({
      event_type: "policy.violation",
      payload: { mode: "warn", code: "RAW_PII_DETECTED" },
    });
    if (d.ok) fold.apply(d.event);
    expect(engine.check(fold, v).ok).toBe(true);
  });

  it("off skips the policy entirely", () => {
    const { engine, fold, event } = at("evt_0012");
    engine.setTenantMode(T, "policy.no_raw_pii", "off");
    const d = engine.check(fold, withPii(event));
    expect(d).toMatchObject({ ok: true, warnings: [] });
  });

  it("a tenant's override leaves other tenants on the pack's mode", () => {
    const engine = createPolicyEngine(PACK);
    const fold = createFold();
    const a = happy();
    const b = retenant(a, "tnt_beta_002");
    const idx = a.findIndex((e) => e.event_id === "evt_0012");
    // Same ids in two tenants: ids are tenant-scoped, neither tenant sees the other's.
    feed(engine, fold, a.slice(0, idx));
    feed(engine, fold, b.slice(0, idx));
    engine.setTenantMode(T, "policy.no_raw_pii", "warn");
    expect(engine.check(fold, withPii(structuredClone(a[idx]!)))).toMatchObject({ ok: true });
    expect(engine.check(fold, withPii(structuredClone(b[idx]!)))).toMatchObject({
      ok: false,
      violation: { code: "RAW_PII_DETECTED" },
    });
    expect(engine.modeOf("tnt_beta_002", "policy.no_raw_pii")).toBe("enforce");
  });

  it("warnings gathered before a refusal travel with it (policies run in pack order)", () => {
    const { engine, fold, event } = at("evt_0012");
    engine.setTenantMode(T, "policy.no_raw_pii", "warn");
    engine.setTenantMode(T, "policy.job_schema", "warn");
    const raw = withPii(event);
    raw.payload.finished_card.buttons[0].action.job_id = "job_other";
    raw.actor = { entity_id: "ent_human_dan", actor_type: "human" };
    const d = engine.check(fold, raw);
    expect(d.ok).toBe(false);
    if (d.ok) return;
    expect(d.violation.policy_id).toBe("policy.job_authority");
    // job_schema (warn) runs before job_authority (enforce); no_raw_pii comes after the refusal.
    expect(d.warnings.map((w) => w.policy_id)).toEqual(["policy.job_schema"]);
  });

  it("the pack's own mode and the factory's tenantModes are honoured", () => {
    const json = structuredClone(PACK);
    json.policies.find((p) => p.policy_id === "policy.no_raw_pii")!.mode = "warn";
    const warnPack = createPolicyEngine(parsePolicyPack(json));
    const { fold, event } = at("evt_0012");
    expect(warnPack.check(fold, withPii(structuredClone(event)))).toMatchObject({
      ok: true,
      warnings: [{ code: "RAW_PII_DETECTED" }],
    });

    const offForT = createPolicyEngine(PACK, { tenantModes: { [T]: { "policy.no_raw_pii": "off" } } });
    expect(offForT.check(fold, withPii(structuredClone(event)))).toMatchObject({ ok: true, warnings: [] });
  });

  it("refuses to set a mode for a policy the pack does not have", () => {
    const { engine } = at("evt_0001");
    expect(() => engine.setTenantMode(T, "policy.nope", "off")).toThrow(/unknown policy/);
  });

  it("turning a schema policy off does not let through what the contract refuses", () => {
    const { engine, fold, event } = at("evt_0001");
    engine.setTenantMode(T, "policy.message_schema", "off");
    event.payload.kind = "voice";
    expect(engine.check(fold, event)).toMatchObject({
      ok: false,
      violation: { code: "INVALID_MESSAGE_SCHEMA", policy_id: "policy.message_schema" },
    });
  });
});
