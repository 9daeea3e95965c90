import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { openStream } from "../support/golden.js";
import { getJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * The Policies admin screen's routes over real HTTP: the list, the preview (writes nothing),
 * saving (one policy.overrides_set), bad inputs and limits with field-level errors, who may (a
 * member is refused by the pack, 403, and the refusal recorded; another workspace is untouched),
 * and the effect: a shorter edit window refuses an edit the pack allowed; warn and off let it in.
 */
const clock = createManualClock(Date.parse(DEFAULT_INSTANT));
let t: TestServer;
let dan: string;
let ana: string;
const T = "tnt_acme_001";
const DM = "cnv_dan_ana";

beforeAll(async () => {
  t = await startTestServer({ clock });
  dan = t.demo.humans.find((h) => h.entity_id === "ent_human_dan")!.token;
  ana = t.demo.humans.find((h) => h.entity_id === "ent_human_ana")!.token;
});
afterAll(() => t.close());

const key = () => `k-${Math.random().toString(36).slice(2)}${Date.now()}`;
async function call(method: string, path: string, token: string, body?: unknown, idem: string | null = key()) {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      ...(idem ? { "idempotency-key": idem } : {}),
    },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}
const policies = async (token = dan) => (await getJson(`${t.url}/v1/admin/policies`, token)).body;
const overridesEvents = () =>
  t.server.ledger.query({ tenant_id: T, event_type: "policy.overrides_set", limit: 1000 }).events;
const EDIT = "policy.message_edit_window";
const WINDOW = "message_edit_window_seconds";

async function send(text: string) {
  const r = await call("POST", `/v1/conversations/${DM}/messages`, dan, { kind: "text", body_text: text });
  expect(r.status).toBe(202);
  return r.body.message_id as string;
}
const edit = (mid: string, text: string) =>
  call("PATCH", `/v1/conversations/${DM}/messages/${mid}`, dan, { body_text: text });

describe("policy overrides", () => {
  it("lists every policy with its pack mode, mode in force and what may change, for admins only", async () => {
    const s = await policies();
    expect(s.policies.length).toBeGreaterThan(20);
    expect(s.policies.find((p: any) => p.policy_id === EDIT)).toMatchObject({
      pack_mode: "enforce",
      mode: "enforce",
      locked: false,
      allowed_modes: ["enforce", "warn", "off"],
    });
    for (const locked of [
      "policy.tenant_isolation",
      "policy.no_raw_pii",
      "policy.override_limits",
      "policy.override_authority",
    ])
      expect(s.policies.find((p: any) => p.policy_id === locked)).toMatchObject({
        locked: true,
        allowed_modes: ["enforce"],
      });
    expect(s.params).toEqual([
      { name: WINDOW, policy_id: EDIT, default_value: 86400, value: 86400, min: 60, max: 2592000 },
    ]);
    expect((await getJson(`${t.url}/v1/admin/policies`, ana)).status).toBe(403);
    // The ledger's own route says the same (admins and auditors).
    expect((await getJson(`${t.url}/v1/ledger/policies?tenant_id=${T}`, dan)).body).toEqual(s);
    expect((await getJson(`${t.url}/v1/ledger/policies?tenant_id=${T}`, ana)).status).toBe(403);
  });

  it("refuses bad input with a clear error naming the field, and writes nothing", async () => {
    const before = overridesEvents().length;
    const cases: Array<[unknown, number, string | RegExp]> = [
      [
        { modes: { "policy.no_such_policy": "off" }, params: {} },
        400,
        /modes\.policy\.no_such_policy: is not a policy/,
      ],
      [{ modes: { "policy.tenant_isolation": "off" }, params: {} }, 400, /is locked: it always runs as enforce/],
      [{ modes: { "policy.no_raw_pii": "warn" }, params: {} }, 400, /is locked/],
      [{ modes: { "policy.policy_violation_event": "warn" }, params: {} }, 400, /may only be enforce, off/],
      [{ modes: { [EDIT]: "sometimes" }, params: {} }, 400, /modes/],
      [{ modes: { "not a policy": "off" }, params: {} }, 400, /modes\.not a policy: Invalid key/],
      [{ modes: {}, params: { [WINDOW]: 59 } }, 400, /from 60 to 2592000/],
      [{ modes: {}, params: { [WINDOW]: 2_592_001 } }, 400, /from 60 to 2592000/],
      [{ modes: {}, params: { [WINDOW]: 90.5 } }, 400, /params/],
      [{ modes: {}, params: { [WINDOW]: "600" } }, 400, /params/],
      [{ modes: {}, params: { [WINDOW]: -1 } }, 400, /params/],
      [{ modes: {}, params: { retries: 3 } }, 400, /params\.retries: is not a parameter/],
      [
        { modes: {}, params: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, 1])) },
        400,
        /at most 100/,
      ],
      [{ modes: {} }, 400, /params/],
      [{ modes: {}, params: {}, extra: 1 }, 400, /extra|Unrecognized/i],
    ];
    for (const [body, status, message] of cases) {
      for (const r of [
        await call("PUT", "/v1/admin/policies", dan, body),
        await call("POST", "/v1/admin/policies/preview", dan, body, null),
      ]) {
        expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(status);
        expect(r.body.error.code).toBe("VALIDATION_ERROR");
        expect(r.body.error.message).toMatch(message);
      }
    }
    const broken = await call("PUT", "/v1/admin/policies", dan, "{nope");
    expect([broken.status, broken.body.error.code]).toEqual([400, "INVALID_JSON"]);
    // A write without an Idempotency-Key is refused like every write.
    expect((await call("PUT", "/v1/admin/policies", dan, { modes: {}, params: { [WINDOW]: 600 } }, null)).status).toBe(
      400,
    );
    // Nothing to change is a conflict, not an empty event.
    const same = await call("PUT", "/v1/admin/policies", dan, {
      modes: { [EDIT]: "enforce" },
      params: { [WINDOW]: 86400 },
    });
    expect([same.status, same.body.error.code]).toEqual([409, "CONFLICT"]);
    expect(overridesEvents()).toHaveLength(before);
  });

  it("previews what changes without writing; saving writes one event; a member is refused by the pack and recorded", async () => {
    const before = overridesEvents().length;
    const proposed = { modes: { [EDIT]: "warn" }, params: { [WINDOW]: 300 } };
    const preview = await call("POST", "/v1/admin/policies/preview", dan, proposed, null);
    expect(preview.status).toBe(200);
    expect(preview.body.changes).toEqual([
      { kind: "mode", policy_id: EDIT, from: "enforce", to: "warn" },
      { kind: "param", name: WINDOW, policy_id: EDIT, from: 86400, to: 300 },
    ]);
    expect(overridesEvents()).toHaveLength(before);

    const member = await call("PUT", "/v1/admin/policies", ana, proposed);
    expect([member.status, member.body.error.code]).toEqual([403, "UNAUTHORIZED_ACTION"]);
    expect((await call("POST", "/v1/admin/policies/preview", ana, proposed, null)).status).toBe(403);
    const violations = t.server.ledger.query({ tenant_id: T, event_type: "policy.violation", limit: 1000 })
      .events as any[];
    expect(
      violations.some(
        (v) =>
          v.payload.violated_policy_id === "policy.override_authority" &&
          v.payload.event_type === "policy.overrides_set",
      ),
    ).toBe(true);

    const danStream = openStream(t.url, { token: dan });
    const anaStream = openStream(t.url, { token: ana });
    await danStream.waitFor((f) => f.event === "hello");
    await anaStream.waitFor((f) => f.event === "hello");
    const k = key();
    const saved = await call("PUT", "/v1/admin/policies", dan, proposed, k);
    expect(saved.status).toBe(200);
    // Admins' streams are told (the event only, no settings); a member's is not.
    const frame = await danStream.waitFor((f) => f.event === "policy.update");
    expect(frame.data).toEqual({ tenant_id: T, event_id: saved.body.created_event_ids[0] });
    await new Promise((r) => setTimeout(r, 300));
    expect(anaStream.frames.some((f) => f.event === "policy.update")).toBe(false);
    danStream.close();
    anaStream.close();
    expect(saved.body.changes).toEqual(preview.body.changes);
    // The same key and body answer the same, and write nothing more.
    expect((await call("PUT", "/v1/admin/policies", dan, proposed, k)).body).toEqual(saved.body);
    const events = overridesEvents() as any[];
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({
      event_id: saved.body.created_event_ids[0],
      actor: { entity_id: "ent_human_dan" },
      conversation_id: "cnv_workspace",
      payload: proposed,
    });
    expect((await policies()).policies.find((p: any) => p.policy_id === EDIT).mode).toBe("warn");

    // Back to the pack: an empty set, and the preview says what returns.
    const back = await call("PUT", "/v1/admin/policies", dan, { modes: {}, params: {} });
    expect(back.body.changes).toEqual([
      { kind: "mode", policy_id: EDIT, from: "warn", to: "enforce" },
      { kind: "param", name: WINDOW, policy_id: EDIT, from: 300, to: 86400 },
    ]);
    expect((await policies()).params[0].value).toBe(86400);
  });

  it("changes what an edit gets: a 2-minute window refuses an edit at 3 minutes; warn lets it through with a recorded warning, off silently", async () => {
    const mid = await send("See you at 3");
    await clock.advance(180_000);
    expect((await edit(mid, "See you at 4")).status).toBe(202);

    expect((await call("PUT", "/v1/admin/policies", dan, { modes: {}, params: { [WINDOW]: 120 } })).status).toBe(200);
    const late = await edit(mid, "See you at 5");
    expect(late.status).toBe(403);
    expect(late.body.error).toMatchObject({ code: "EDIT_WINDOW_CLOSED", details: { edit_window_seconds: 120 } });

    // Warn lets it through (the ledger records a warning); off lets it through silently.
    expect(
      (await call("PUT", "/v1/admin/policies", dan, { modes: { [EDIT]: "warn" }, params: { [WINDOW]: 120 } })).status,
    ).toBe(200);
    expect((await edit(mid, "See you at 5")).status).toBe(202);
    const warned = t.server.ledger.query({ tenant_id: T, event_type: "policy.violation", limit: 1000 }).events as any[];
    expect(warned.at(-1).payload).toMatchObject({ violated_policy_id: EDIT, code: "EDIT_WINDOW_CLOSED", mode: "warn" });
    expect(
      (await call("PUT", "/v1/admin/policies", dan, { modes: { [EDIT]: "off" }, params: { [WINDOW]: 120 } })).status,
    ).toBe(200);
    const count = t.server.ledger.query({ tenant_id: T, event_type: "policy.violation", limit: 1000 }).events.length;
    expect((await edit(mid, "See you at 6")).status).toBe(202);
    expect(t.server.ledger.query({ tenant_id: T, event_type: "policy.violation", limit: 1000 }).events).toHaveLength(
      count,
    );
  });
});
