import { afterAll, afterEach, describe, expect, it } from "vitest";
import { migrateGateway } from "../../../src/gateway/migrate.js";
import { createSearchIndex } from "../../../src/gateway/search/search-index.js";
import { openDatabase } from "../../../src/shared/db.js";
import { messageSent, setupTenant } from "../helpers.js";
import { openPgLedger, stopSharedPostgres } from "./pg-helpers.js";

afterAll(stopSharedPostgres);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const quiet = { info() {}, warn() {}, error() {} };

describe("the search index on a ledger whose reads answer later", () => {
  it("catches up page by page while messages keep committing, and indexes each message once", async () => {
    const a = await openPgLedger();
    cleanups.push(() => a.cleanup());
    await a.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
    for (let b = 0; b < 11; b++)
      await a.ledger.append({
        tenant_id: "ten_a",
        events: Array.from({ length: 100 }, (_, i) => messageSent("ten_a", `early${b * 100 + i}`)),
      });

    const db = openDatabase({ path: ":memory:" });
    cleanups.push(() => db.close());
    migrateGateway(db);
    // Queued before the index exists.
    const late = Array.from({ length: 20 }, (_, i) =>
      a.ledger.append({ tenant_id: "ten_a", events: [messageSent("ten_a", `late${i}`)] }),
    );
    // The first page is read before they commit, the second after: they arrive mid-catch-up.
    let pages = 0;
    const ledger: typeof a.ledger = Object.create(a.ledger, {
      query: {
        value: async (...args: Parameters<typeof a.ledger.query>) => {
          const page = await a.ledger.query(...args);
          if (++pages === 1) await Promise.all(late);
          return page;
        },
      },
    });
    const index = createSearchIndex({ db, ledger, logger: quiet });
    cleanups.push(() => index.close());
    await Promise.all(late);

    const head = a.ledger.head("ten_a").tenant_seq;
    expect(head).toBe(2 + 1100 + 20);
    const indexed = () =>
      db.prepare("SELECT seq FROM gateway_search_messages WHERE tenant_id = 'ten_a' ORDER BY seq").pluck().all();
    await expect.poll(() => (index.flush(), indexed().length), { timeout: 10_000 }).toBe(1120);
    expect(indexed()).toEqual(Array.from({ length: 1120 }, (_, i) => i + 3));
    const hits = index.query({
      tenantId: "ten_a",
      match: "late7",
      conversationIds: ["cnv_general"],
      beforeSeq: head + 1,
      limit: 10,
    });
    expect(hits.map((h) => h.marked)).toHaveLength(1);
  });
});
