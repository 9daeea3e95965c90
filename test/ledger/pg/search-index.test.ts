import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createSearchIndex } from "../../../src/gateway/search/search-index.js";
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

    const dir = mkdtempSync(join(tmpdir(), "search-index-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "search.sqlite");
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
    const index = createSearchIndex({ path, ledger, logger: quiet });
    cleanups.push(() => index.close());
    await Promise.all(late);

    const head = a.ledger.head("ten_a").tenant_seq;
    expect(head).toBe(2 + 1100 + 20);
    // The index's own file, as its thread left it once it holds everything committed so far.
    await index.settled();
    const hits = await index.query({
      tenantId: "ten_a",
      match: "late7",
      conversationIds: ["cnv_general"],
      beforeSeq: head + 1,
      limit: 10,
    });
    expect(hits.map((h) => h.marked)).toHaveLength(1);
    const db = new Database(path, { readonly: true });
    cleanups.push(() => db.close());
    const indexed = db.prepare("SELECT seq FROM search_messages WHERE tenant_id = 'ten_a' ORDER BY seq").pluck().all();
    expect(indexed).toEqual(Array.from({ length: 1120 }, (_, i) => i + 3));
  });
});
