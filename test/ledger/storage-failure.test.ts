import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { createLedgerRoutes } from "../../src/ledger/routes.js";
import { openDatabase } from "../../src/shared/db.js";
import { createSqliteLedger } from "../../src/ledger/ledger.js";
import { messageSent, openTestLedger, setupTenant, type TestLedger } from "./helpers.js";

let t: TestLedger;
afterEach(() => t?.cleanup());

const post = (app: ReturnType<typeof createApp>, body: unknown) =>
  app.request("/v1/ledger/append", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("storage failures", () => {
  it("disk full: every batch of the group gets 507, nothing partial is written, and appends work again once space is back", async () => {
    t = openTestLedger();
    const app = createApp({ routes: [createLedgerRoutes(t.ledger)] });
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    const headBefore = t.ledger.head("ten_a");
    const rowsBefore = t.db.prepare("SELECT count(*) FROM ledger_events").pluck().get();
    // SQLite answers SQLITE_FULL when the file would outgrow max_page_count: a full disk, on demand.
    const pages = t.db.pragma("page_count", { simple: true }) as number;
    t.db.pragma(`max_page_count = ${pages + 3}`);

    const big = Array.from({ length: 60 }, () => messageSent("ten_a", "x", { size: 1000 }));
    const small = [messageSent("ten_a", "small")];
    const [r1, r2] = await Promise.all([
      post(app, { tenant_id: "ten_a", events: big }),
      post(app, { tenant_id: "ten_a", events: small }),
    ]);
    expect(r1.status).toBe(507);
    expect(r2.status).toBe(507);
    expect(await r1.json()).toMatchObject({
      error: { code: "STORAGE_FULL", message: expect.any(String), details: { storage_code: "SQLITE_FULL" } },
    });

    expect(t.db.prepare("SELECT count(*) FROM ledger_events").pluck().get()).toBe(rowsBefore);
    expect(t.ledger.head("ten_a")).toEqual(headBefore);
    expect(t.ledger.checkpoint("ten_a")!.tenant_seq).toBe(headBefore.tenant_seq);

    t.db.pragma("max_page_count = 1073741823");
    // The same event ids are accepted: the fold forgot the failed group too.
    const ok = await post(app, { tenant_id: "ten_a", events: big });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, cursor: "seq:62" });
    expect(t.ledger.verify("ten_a").ok).toBe(true);
  });

  it("read-only storage answers 503 STORAGE_UNAVAILABLE and recovers when writable again", async () => {
    t = openTestLedger();
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    const app = createApp({ routes: [createLedgerRoutes(t.ledger)] });
    t.db.pragma("query_only = 1");
    const res = await post(app, { tenant_id: "ten_a", events: [messageSent("ten_a")] });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      error: { code: "STORAGE_UNAVAILABLE", details: { storage_code: expect.stringMatching(/^SQLITE_READONLY/) } },
    });
    t.db.pragma("query_only = 0");
    expect((await post(app, { tenant_id: "ten_a", events: [messageSent("ten_a")] })).status).toBe(200);
    expect(t.ledger.head("ten_a").tenant_seq).toBe(3);
  });

  it("a ledger opened on a read-only database file boots, serves reads and answers appends with 503", async () => {
    t = openTestLedger();
    await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    t.close();
    const ro = openDatabase({ path: t.dbPath, readonly: true });
    try {
      const ledger = createSqliteLedger({ db: ro, dataDir: t.dir });
      expect(ledger.head("ten_a").tenant_seq).toBe(2);
      expect(ledger.verify("ten_a").ok).toBe(true);
      await expect(ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a")] })).rejects.toMatchObject({
        code: "STORAGE_UNAVAILABLE",
        status: 503,
      });
      ledger.close();
    } finally {
      ro.close();
    }
  });
});
