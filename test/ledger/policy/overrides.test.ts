import { describe, expect, it } from "vitest";
import { createPolicyEngine } from "../../../src/ledger/policy/index.js";
import { createFold } from "../../../src/ledger/fold.js";
import { DAN, PACK, T, after, feed, registerEvent, type Raw } from "./helpers.js";

/**
 * A workspace's overrides (`policy.overrides_set`) change how the pack judges that workspace and
 * no other: the edit window's length and mode, read per event from the fold; rolled back with it.
 */
const OWNER = { entity_id: "ent_human_olive", actor_type: "human" };
const setOverrides = (id: string, payload: Raw, tenant = T): Raw => ({
  event_id: id,
  event_type: "policy.overrides_set",
  ts: "2025-12-27T10:00:07.000Z",
  tenant_id: tenant,
  trace_id: "trc_o",
  conversation_id: "cnv_workspace",
  actor: OWNER,
  payload,
});
const edit = (ts: string): Raw => ({
  event_id: `evt_edit_${ts}`,
  event_type: "message.edited",
  ts,
  tenant_id: T,
  trace_id: "trc_o",
  conversation_id: "cnv_9f2a",
  actor: DAN,
  payload: { message_id: "msg_0001", body_text: "a 45-min call" },
});

function given(...events: Raw[]) {
  const { fold, engine } = after("evt_0001");
  feed(engine, fold, [
    registerEvent("evt_reg_olive", {
      entity_id: OWNER.entity_id,
      actor_type: "human",
      display_name: "Olive",
      roles: ["owner", "admin"],
    }),
    ...events,
  ]);
  return { fold, engine };
}
const codeOf = (d: ReturnType<ReturnType<typeof createPolicyEngine>["check"]>) => (d.ok ? "ok" : d.violation.code);

describe("policy overrides", () => {
  // msg_0001 was sent at 10:15:00; the pack's window is 24 h.
  const tenMinutesLater = "2025-12-27T10:25:00.000Z";
  const twoDaysLater = "2025-12-29T10:15:00.000Z";

  it("a shorter edit window refuses an edit the pack allowed", () => {
    const plain = given();
    expect(codeOf(plain.engine.check(plain.fold, edit(tenMinutesLater)))).toBe("ok");
    const short = given(setOverrides("evt_o1", { modes: {}, params: { message_edit_window_seconds: 300 } }));
    const d = short.engine.check(short.fold, edit(tenMinutesLater));
    expect(codeOf(d)).toBe("EDIT_WINDOW_CLOSED");
    expect(d.ok ? "" : d.violation.message_safe).toContain("within 300 s");
  });

  it("the edit window off lets a late edit through; warn lets it through with a warning", () => {
    const plain = given();
    expect(codeOf(plain.engine.check(plain.fold, edit(twoDaysLater)))).toBe("EDIT_WINDOW_CLOSED");
    const off = given(setOverrides("evt_o1", { modes: { "policy.message_edit_window": "off" }, params: {} }));
    const d = off.engine.check(off.fold, edit(twoDaysLater));
    expect([codeOf(d), d.warnings.length]).toEqual(["ok", 0]);
    const warn = given(setOverrides("evt_o1", { modes: { "policy.message_edit_window": "warn" }, params: {} }));
    const w = warn.engine.check(warn.fold, edit(twoDaysLater));
    expect([codeOf(w), w.warnings.map((x) => x.code)]).toEqual(["ok", ["EDIT_WINDOW_CLOSED"]]);
  });

  it("a later set replaces the earlier one whole; an empty set is the pack again", () => {
    const g = given(
      setOverrides("evt_o1", { modes: { "policy.message_edit_window": "off" }, params: {} }),
      setOverrides("evt_o2", { modes: {}, params: {} }),
    );
    expect(codeOf(g.engine.check(g.fold, edit(twoDaysLater)))).toBe("EDIT_WINDOW_CLOSED");
    expect(g.fold.policyOverrides(T)).toEqual({ modes: new Map(), params: new Map() });
  });

  it("is rolled back with its batch, and touches no other workspace", () => {
    const fold = createFold();
    const engine = createPolicyEngine(PACK);
    const before = JSON.stringify(fold.snapshot());
    const m = fold.mark();
    fold.apply(setOverrides("evt_o1", { modes: { "policy.message_edit_window": "off" }, params: {} }) as never);
    expect(fold.policyOverrides(T)?.modes.get("policy.message_edit_window")).toBe("off");
    expect(fold.policyOverrides("tnt_other")).toBeUndefined();
    fold.rollbackTo(m);
    fold.release(m);
    expect(JSON.stringify(fold.snapshot())).toBe(before);
    expect(engine.modeOf(T, "policy.message_edit_window")).toBe("enforce");
  });

  it("settings show each policy's pack mode, the mode in force, what may be chosen, and the parameter's range", () => {
    const g = given(
      setOverrides("evt_o1", {
        modes: { "policy.message_edit_window": "warn" },
        params: { message_edit_window_seconds: 900 },
      }),
    );
    const s = g.engine.settings(g.fold, T);
    expect(s.policies.map((p) => p.policy_id)).toEqual(PACK.policies.map((p) => p.policy_id));
    expect(s.policies.find((p) => p.policy_id === "policy.message_edit_window")).toMatchObject({
      pack_mode: "enforce",
      mode: "warn",
      allowed_modes: ["enforce", "warn", "off"],
      locked: false,
      code: "EDIT_WINDOW_CLOSED",
    });
    expect(s.policies.find((p) => p.policy_id === "policy.tenant_isolation")).toMatchObject({
      mode: "enforce",
      allowed_modes: ["enforce"],
      locked: true,
    });
    expect(s.params).toEqual([
      {
        name: "message_edit_window_seconds",
        policy_id: "policy.message_edit_window",
        default_value: 86400,
        value: 900,
        min: 60,
        max: 2592000,
      },
    ]);
    // Another workspace sees the pack.
    expect(g.engine.settings(g.fold, "tnt_other").params[0]?.value).toBe(86400);
    // A deployment's own value is the default a workspace returns to.
    const deployed = createPolicyEngine(PACK, { params: { message_edit_window_seconds: 3600 } });
    expect(deployed.settings(createFold(), T).params[0]).toMatchObject({ default_value: 3600, value: 3600 });
  });
});
