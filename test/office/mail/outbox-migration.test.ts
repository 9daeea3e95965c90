import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterEach, describe, expect, it } from "vitest";
import { migrateOffice } from "../../../src/office/migrate.js";
import { openDatabase } from "../../../src/shared/db.js";

const MIGRATIONS = fileURLToPath(new URL("../../../src/office/migrations", import.meta.url));
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("0004_outbox_delivery on a data dir from before", () => {
  it("applies after 0003 and keeps existing outbox rows valid: attempts 0, no due time, status untouched", () => {
    dir = mkdtempSync(join(tmpdir(), "office-mig-"));
    // The migrations as they were before this one (it and every later one taken away).
    const before = join(dir, "migrations");
    cpSync(MIGRATIONS, before, { recursive: true });
    const journalPath = join(before, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
    const at = journal.entries.findIndex((e) => e.tag === "0004_outbox_delivery");
    for (const e of journal.entries.slice(at)) unlinkSync(join(before, `${e.tag}.sql`));
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalPath, JSON.stringify(journal));

    const db = openDatabase({ path: join(dir, "logline.db") });
    migrate(drizzle(db), { migrationsFolder: before, migrationsTable: "__office_migrations" });
    db.prepare(
      "INSERT INTO office_outbox (outbox_id, tenant_id, job_id, idempotency_key, to_vault_ref, to_redacted, subject, body, artifact_id, status, created_at, vault_refs) VALUES ('obx_old', 't', 'j', 'k', 'vault_ref:v', 'a***@example.com', 's', 'b', 'art_1', 'queued', '2025-12-01T00:00:00.000Z', NULL)",
    ).run();

    migrateOffice(db);
    const row = db.prepare("SELECT * FROM office_outbox WHERE outbox_id = 'obx_old'").get();
    expect(row).toMatchObject({
      status: "queued",
      attempts: 0,
      retry_base: 0,
      next_attempt_at: null,
      last_error: null,
      message_id: null,
      sent_at: null,
      updated_at: null,
    });
    const cols = db.prepare("PRAGMA table_info(office_outbox)").all() as Array<{
      name: string;
      notnull: number;
      dflt_value: string | null;
    }>;
    for (const c of cols.filter((c) =>
      ["next_attempt_at", "last_error", "last_response", "message_id", "sent_at", "updated_at"].includes(c.name),
    ))
      expect(c.notnull, c.name).toBe(0);
    expect(cols.find((c) => c.name === "attempts")).toMatchObject({ notnull: 1, dflt_value: "0" });
    db.close();
  });
});
