import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { ZUblEvent } from "../../../contracts/events.js";
import { createFold } from "../../../src/ledger/fold.js";
import {
  createPolicyEngine,
  loadPolicyPack,
  type PackPolicyEngine,
  type PolicyDecision,
  type PolicyFold,
} from "../../../src/ledger/policy/index.js";

const GOLDEN_DIR = fileURLToPath(new URL("../../../fixtures/golden-path/", import.meta.url));
export const PACK = loadPolicyPack();

export type Raw = Record<string, any>;

export interface Scenario {
  file: string;
  scenario: string;
  tenant_id: string;
  events: Raw[];
}

export function loadScenarios(): Scenario[] {
  return readdirSync(GOLDEN_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, ...JSON.parse(readFileSync(GOLDEN_DIR + file, "utf8")) }));
}

export const scenario = (file: string) => {
  const s = loadScenarios().find((x) => x.file === file);
  if (!s) throw new Error(`no fixture ${file}`);
  return s;
};

export const happy = () => scenario("happy-path.json").events;

export function newEngine(): PackPolicyEngine {
  return createPolicyEngine(PACK);
}

/** Runs events through engine + fold like the ledger does; throws on the first refusal. */
export function feed(engine: PackPolicyEngine, fold: PolicyFold, events: Raw[]): void {
  for (const e of events) {
    const d = engine.check(fold, e);
    if (!d.ok) throw new Error(`${e.event_id} refused: ${d.violation.code} ${d.violation.message_safe}`);
    fold.apply(d.event);
  }
}

/**
 * A fold holding a scenario's events before `eventId`, and a deep copy of that event to
 * mutate into a violating one (or to check as the valid one).
 */
export function at(
  eventId: string,
  events: Raw[] = happy(),
  engine = newEngine(),
): { fold: PolicyFold; event: Raw; engine: PackPolicyEngine } {
  const idx = events.findIndex((e) => e.event_id === eventId);
  if (idx < 0) throw new Error(`no event ${eventId}`);
  const fold = createFold();
  feed(engine, fold, events.slice(0, idx));
  return { fold, event: structuredClone(events[idx] as Raw), engine };
}

/** A fold holding every event of the scenario up to and including `eventId`. */
export function after(
  eventId: string,
  events: Raw[] = happy(),
  engine = newEngine(),
): { fold: PolicyFold; engine: PackPolicyEngine } {
  const idx = events.findIndex((e) => e.event_id === eventId);
  const fold = createFold();
  feed(engine, fold, events.slice(0, idx + 1));
  return { fold, engine };
}

/** Asserts a refusal by `policyId` with its pack code, and that its policy.violation event is valid and passes the pack. */
export function expectRefused(
  engine: PackPolicyEngine,
  fold: PolicyFold,
  raw: unknown,
  policyId: string | null,
  code?: string,
): PolicyDecision {
  const d = engine.check(fold, raw);
  const wantCode = code ?? codeOf(policyId as string);
  expect(d.ok, `expected a refusal by ${policyId}`).toBe(false);
  if (d.ok) return d;
  expect(d.violation).toMatchObject({ policy_id: policyId, code: wantCode });
  expect(d.violation.message_safe.length).toBeGreaterThan(0);
  const v = engine.violationEvent(raw, d.violation, {
    event_id: "evt_pol_test_0001",
    ts: "2025-12-27T10:30:00.000Z",
    mode: "enforce",
    fold,
    tenant_id: batchTenant(raw),
  });
  if ((raw as Raw | null)?.event_type === "policy.violation") {
    // A violation about a violation is never emitted (a warning about a warning would never end).
    expect(v).toBeNull();
    return d;
  }
  expect(v).not.toBeNull();
  const parsed = ZUblEvent.parse(v);
  expect(parsed.event_type).toBe("policy.violation");
  if (parsed.event_type === "policy.violation") {
    expect(parsed.payload).toMatchObject({
      violated_policy_id: policyId ?? "schema_gate",
      code: wantCode,
      mode: "enforce",
    });
    expect(parsed.actor).toEqual({ entity_id: "system_policy_agent", actor_type: "system" });
  }
  const self = engine.check(fold, v);
  expect(self.ok, `the policy.violation must itself pass: ${!self.ok && JSON.stringify(self.violation)}`).toBe(true);
  return d;
}

/** The ledger appends per tenant: the batch's tenant is the one the event names (else the golden one). */
const batchTenant = (raw: unknown) => {
  const t = (raw as Raw | null)?.tenant_id;
  return typeof t === "string" ? t : "tnt_acme_001";
};

export function expectPasses(engine: PackPolicyEngine, fold: PolicyFold, raw: unknown): void {
  const d = engine.check(fold, raw);
  expect(d.ok ? null : d.violation).toBeNull();
  expect(d.warnings).toEqual([]);
}

function codeOf(policyId: string): string {
  const p = PACK.policies.find((x) => x.policy_id === policyId);
  if (p?.on_violation.action !== "reject") throw new Error(`no rejecting policy ${policyId}`);
  return p.on_violation.code;
}

/** A fresh id for an event copied from the fixture (so uniqueness does not refuse it first). */
export function renamed(e: Raw, id: string): Raw {
  return { ...structuredClone(e), event_id: id };
}

export const T = "tnt_acme_001";
export const DAN = { entity_id: "ent_human_dan", actor_type: "human" };
export const AGENT = { entity_id: "ent_agent_scheduler", actor_type: "agent" };
export const SYSTEM = { entity_id: "system_gateway", actor_type: "system" };

export function registerEvent(id: string, entity: Raw, actor: Raw = SYSTEM, tenant = T): Raw {
  return {
    event_id: id,
    event_type: "entity.registered",
    ts: "2025-12-27T10:00:05.000Z",
    tenant_id: tenant,
    trace_id: "trc_test",
    conversation_id: "cnv_workspace",
    actor,
    payload: { roles: [], ...entity },
  };
}

export function conversationEvent(
  id: string,
  conversationId: string,
  members: string[],
  actor: Raw = DAN,
  tenant = T,
): Raw {
  return {
    event_id: id,
    event_type: "conversation.created",
    ts: "2025-12-27T10:00:06.000Z",
    tenant_id: tenant,
    trace_id: "trc_test",
    conversation_id: conversationId,
    actor,
    payload: {
      conversation_id: conversationId,
      title: "Other",
      participants: members.map((entity_id) => ({ entity_id })),
    },
  };
}
