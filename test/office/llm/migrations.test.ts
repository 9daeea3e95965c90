import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/shared/db.js";
import { migrateOffice } from "../../../src/office/migrate.js";
import { createLlmStore } from "../../../src/office/llm/store.js";

describe("office llm tables come from Office's migrations", () => {
  it("a fresh database gets office_llm_packets, office_thread_context and office_assist_suggestions, recorded in __office_migrations", () => {
    const db = openDatabase({ path: ":memory:" });
    migrateOffice(db);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    ).map((r) => r.name);
    expect(tables).toEqual(
      expect.arrayContaining([
        "office_llm_packets",
        "office_thread_context",
        "office_assist_suggestions",
        "__office_migrations",
      ]),
    );
    expect((db.prepare("SELECT count(*) AS n FROM __office_migrations").get() as { n: number }).n).toBe(
      journalEntries(),
    );
    // 0003 only adds nullable columns, so rows of an existing data dir stay valid.
    for (const table of ["office_artifacts", "office_outbox"]) {
      const col = (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string; notnull: number }>).find(
        (c) => c.name === "vault_refs",
      );
      expect(col, table).toMatchObject({ notnull: 0 });
    }
    db.close();
  });

  it("a database whose tables were created before the migration keeps its rows", () => {
    const db = openDatabase({ path: ":memory:" });
    // The first migration alone, then the tables the way they used to be created (ad hoc).
    db.exec(`CREATE TABLE office_thread_context (tenant_id TEXT NOT NULL, conversation_id TEXT NOT NULL, last_job_id TEXT, recent_job_ids TEXT NOT NULL,
      pinned_job_id TEXT, focus_job_id TEXT, turn INTEGER NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (tenant_id, conversation_id));
      INSERT INTO office_thread_context VALUES ('ten_1', 'cnv_1', NULL, '[]', 'job_a', NULL, 3, 'x');`);
    const store = createLlmStore(db);
    expect(store.getThreadContext("ten_1", "cnv_1").pinnedJobId).toBe("job_a");
    expect(store.nextTurn("ten_1", "cnv_1", "y")).toBe(4);
    db.close();
  });
});

/** Every migration in Office's journal is recorded as applied. */
function journalEntries(): number {
  const path = fileURLToPath(new URL("../../../src/office/migrations/meta/_journal.json", import.meta.url));
  return (JSON.parse(readFileSync(path, "utf8")) as { entries: unknown[] }).entries.length;
}
