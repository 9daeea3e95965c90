import { afterEach, describe, expect, it } from "vitest";
import { ZAppendResponse, ZCheckpoint, ZKeysResponse, ZQueryResponse, ZVerifyReport } from "../../contracts/ledger.js";
import { ZErrorBody } from "../../contracts/errors.js";
import { createApp } from "../../src/app.js";
import { createLedgerRoutes } from "../../src/ledger/routes.js";
import { messageSent, openTestLedger, setupTenant, type TestLedger } from "./helpers.js";

let t: TestLedger;
afterEach(() => t?.cleanup());

function setup(opts: Parameters<typeof createLedgerRoutes>[1] = {}) {
  t = openTestLedger();
  return createApp({ routes: [createLedgerRoutes(t.ledger, opts)] });
}

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = ZErrorBody.parse(await res.json());
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

describe("ledger REST", () => {
  it("appends, queries, serves keys, checkpoint and verify", async () => {
    const app = setup();
    const events = [...setupTenant("ten_a"), messageSent("ten_a")];
    const res = await app.request("/v1/ledger/append", json({ tenant_id: "ten_a", events }));
    expect(res.status).toBe(200);
    expect(ZAppendResponse.parse(await res.json())).toMatchObject({ ok: true, cursor: "seq:3" });

    const q = ZQueryResponse.parse(
      await (await app.request("/v1/ledger/query?tenant_id=ten_a&event_type=message.sent&limit=5")).json(),
    );
    expect(q.events.map((e) => e.event_id)).toEqual([events[2]!.event_id]);

    const keys = ZKeysResponse.parse(await (await app.request("/v1/ledger/keys")).json());
    expect(keys.keys[0]!.public_key_pem).toMatch(/BEGIN PUBLIC KEY/);
    expect(JSON.stringify(keys)).not.toMatch(/PRIVATE/);

    const cp = ZCheckpoint.parse(await (await app.request("/v1/ledger/checkpoint?tenant_id=ten_a")).json());
    expect(cp.tenant_seq).toBe(3);
    const report = ZVerifyReport.parse(await (await app.request("/v1/ledger/verify?tenant_id=ten_a")).json());
    expect(report.ok).toBe(true);
  });

  it("answers bad input on the write path with the standard error shape", async () => {
    const app = setup();
    await expectError(await app.request("/v1/ledger/append", json("{not json")), 400, "INVALID_JSON");
    await expectError(
      await app.request("/v1/ledger/append", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    await expectError(
      await app.request("/v1/ledger/append", { method: "POST", body: "{}" }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    await expectError(await app.request("/v1/ledger/append", json({ tenant_id: "ten_a" })), 400, "VALIDATION_ERROR");
    await expectError(
      await app.request("/v1/ledger/append", json({ tenant_id: "ten_a", events: [], extra: 1 })),
      400,
      "VALIDATION_ERROR",
    );
    await expectError(await app.request("/v1/ledger/append", json([1, 2])), 400, "VALIDATION_ERROR");
    const unknownRes = await app.request(
      "/v1/ledger/append",
      json({ tenant_id: "ten_a", events: [{ ...messageSent("ten_a"), event_type: "teleport.started" }] }),
    );
    const unknown = ZErrorBody.parse(await unknownRes.json());
    // The pack's envelope policy lists the known types, so it refuses first (422); a pack without
    // that rule leaves the refusal to the contract gate (400 UNKNOWN_EVENT_TYPE).
    expect([400, 422]).toContain(unknownRes.status);
    expect(["INVALID_ENVELOPE", "UNKNOWN_EVENT_TYPE"]).toContain(unknown.error.code);
    expect(unknown.error.message).toMatch(/event_type|teleport\.started/);
    expect(unknown.error.details).toMatchObject({ event_index: 0 });
    const { trace_id: _dropped, ...missingField } = messageSent("ten_a");
    await expectError(
      await app.request("/v1/ledger/append", json({ tenant_id: "ten_a", events: [missingField] })),
      422,
      "INVALID_ENVELOPE",
    );
  });

  it("refuses bodies over 1 MiB, with or without Content-Length", async () => {
    const app = setup();
    const huge = JSON.stringify({ tenant_id: "ten_a", events: [{ pad: "x".repeat(1024 * 1024) }] });
    await expectError(await app.request("/v1/ledger/append", json(huge)), 413, "PAYLOAD_TOO_LARGE");
    const chunked = new ReadableStream<Uint8Array>({
      start(ctl) {
        const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
        ctl.enqueue(new TextEncoder().encode('{"tenant_id":"ten_a","events":[{"pad":"'));
        for (let i = 0; i < 20; i++) ctl.enqueue(chunk);
        ctl.enqueue(new TextEncoder().encode('"}]}'));
        ctl.close();
      },
    });
    const res = await app.request("/v1/ledger/append", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunked,
      duplex: "half",
    } as RequestInit);
    await expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(t.ledger.head("ten_a").tenant_seq).toBe(0);
  });

  it("validates query, checkpoint and verify parameters", async () => {
    const app = setup();
    await expectError(await app.request("/v1/ledger/query"), 400, "VALIDATION_ERROR");
    await expectError(await app.request("/v1/ledger/query?tenant_id=ten_a&limit=5000"), 400, "VALIDATION_ERROR");
    await expectError(await app.request("/v1/ledger/query?tenant_id=ten_a&after_cursor=abc"), 400, "VALIDATION_ERROR");
    await expectError(await app.request("/v1/ledger/checkpoint"), 400, "VALIDATION_ERROR");
    await expectError(await app.request("/v1/ledger/checkpoint?tenant_id=ten_none"), 404, "NOT_FOUND");
    await expectError(await app.request("/v1/ledger/verify"), 400, "VALIDATION_ERROR");
  });

  it("answers only loopback clients unless told otherwise", async () => {
    const app = setup();
    const remote = { incoming: { socket: { remoteAddress: "203.0.113.7" } } };
    await expectError(await app.request("/v1/ledger/keys", {}, remote), 403, "FORBIDDEN");
    await expectError(
      await app.request("/v1/ledger/append", json({ tenant_id: "ten_a", events: setupTenant("ten_a") }), remote),
      403,
      "FORBIDDEN",
    );
    expect(t.ledger.head("ten_a").tenant_seq).toBe(0);
    expect(
      (await app.request("/v1/ledger/keys", {}, { incoming: { socket: { remoteAddress: "::ffff:127.0.0.1" } } }))
        .status,
    ).toBe(200);

    t.cleanup();
    const open = setup({ loopbackOnly: false });
    expect((await open.request("/v1/ledger/keys", {}, remote)).status).toBe(200);
  });
});
