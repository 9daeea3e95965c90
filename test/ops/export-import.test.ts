import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LedgerApi } from "../../src/ledger/index.js";
import { exportTenantToFile, importTenant, readExport } from "../../src/ops/export-import.js";
import {
  conversationCreated,
  messageSent,
  openTestLedger,
  setupTenant,
  tempDir,
  type TestLedger,
} from "../ledger/helpers.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
const track = <T extends { cleanup(): void }>(x: T): T => (cleanups.push(() => x.cleanup()), x);

/** Every read the ledger serves for a tenant, page by page, with several filters. */
function reads(ledger: LedgerApi, tenant: string) {
  const all = (filter: Record<string, string>) => {
    const out: unknown[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = ledger.query({
        tenant_id: tenant,
        limit: 7,
        ...filter,
        ...(cursor ? { after_cursor: cursor } : {}),
      });
      out.push(...page.events);
      if (!page.next_cursor) return out;
      cursor = page.next_cursor;
    }
  };
  return {
    everything: all({}),
    general: all({ conversation_id: "cnv_general" }),
    other: all({ conversation_id: "cnv_other" }),
    messages: all({ event_type: "message.sent" }),
    head: ledger.head(tenant),
    tenants: ledger.tenants(),
  };
}

async function seeded(): Promise<TestLedger> {
  const t = track(openTestLedger());
  await t.ledger.append({ tenant_id: "ten_a", events: setupTenant("ten_a") });
  await t.ledger.append({ tenant_id: "ten_b", events: setupTenant("ten_b") });
  await t.ledger.append({ tenant_id: "ten_a", events: [conversationCreated("ten_a", "cnv_other")] });
  for (let i = 0; i < 5; i++) {
    await t.ledger.append({
      tenant_id: "ten_a",
      events: Array.from({ length: 9 }, (_, j) =>
        messageSent("ten_a", `m${i}-${j}`, { conversationId: j % 3 ? "cnv_general" : "cnv_other" }),
      ),
    });
    await t.ledger.append({ tenant_id: "ten_b", events: [messageSent("ten_b", `other tenant ${i}`)] });
  }
  return t;
}

describe("export → import", () => {
  it("reproduces identical reads in an empty data dir, and only the exported tenant", async () => {
    const src = await seeded();
    const work = track(tempDir("export-"));
    const file = join(work.dir, "ten_a.ndjson");
    const exported = await exportTenantToFile({ dataDir: src.dir, tenant: "ten_a", file });
    expect(exported.events).toBe(48);
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(48);
    const before = reads(src.ledger, "ten_a");
    src.close();

    const dst = track(tempDir("import-"));
    const imported = await importTenant({ dataDir: dst.dir, file, batch: 10 });
    expect(imported).toEqual({ tenant: "ten_a", events: 48, head: exported.head });

    const reopened = track(openTestLedger({}, dst.dir));
    const after = reads(reopened.ledger, "ten_a");
    expect(after.tenants).toEqual(["ten_a"]);
    expect({ ...after, tenants: undefined }).toEqual({ ...before, tenants: undefined });
    expect(reopened.ledger.verify("ten_a")).toMatchObject({ ok: true, events_checked: 48 });
  });

  it("refuses an edited or truncated export before writing anything", async () => {
    const src = await seeded();
    const work = track(tempDir("export-"));
    const file = join(work.dir, "ten_a.ndjson");
    await exportTenantToFile({ dataDir: src.dir, tenant: "ten_a", file });
    const lines = readFileSync(file, "utf8").trim().split("\n");

    const edited = join(work.dir, "edited.ndjson");
    writeFileSync(
      edited,
      `${lines.map((l, i) => (i === 9 ? l.replace(`"body_text":"`, `"body_text":"edited `) : l)).join("\n")}\n`,
    );
    await expect(readExport(edited)).rejects.toThrow(/edited\.ndjson:10: seq 10 hash mismatch/);

    const gap = join(work.dir, "gap.ndjson");
    writeFileSync(gap, `${lines.filter((_, i) => i !== 20).join("\n")}\n`);
    await expect(readExport(gap)).rejects.toThrow(/gap\.ndjson:21: seq 22 where 21 was expected/);

    const dst = track(tempDir("import-"));
    await expect(importTenant({ dataDir: dst.dir, file: edited })).rejects.toThrow(/hash mismatch/);
  });

  it("refuses to import over a tenant that already has events", async () => {
    const src = await seeded();
    const work = track(tempDir("export-"));
    const file = join(work.dir, "ten_b.ndjson");
    await exportTenantToFile({ dataDir: src.dir, tenant: "ten_b", file });
    src.close();
    await expect(importTenant({ dataDir: src.dir, file })).rejects.toThrow(/ten_b already has events/);
  });
});
