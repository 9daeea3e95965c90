import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import Database from "better-sqlite3";
import { tempDir } from "../ledger/helpers.js";
import { assertSchemaNotNewer, SchemaTooNewError } from "../../src/ops/migration-guard.js";
import { openDatabase } from "../../src/shared/db.js";
import { migrateLedger } from "../../src/ledger/store.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsx = join(root, "node_modules", ".bin", "tsx");
const main = join(root, "src", "main.ts");

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** Starts the real entry point in a clean environment (no inherited LogLine variables, no .env). */
function start(env: Record<string, string>) {
  const cwd = tempDir("main-");
  cleanups.push(() => cwd.cleanup());
  const r = spawnSync(tsx, [main], {
    cwd: cwd.dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: join(cwd.dir, "data"), ...env },
    encoding: "utf8",
    timeout: 20_000,
  });
  return { code: r.status, stderr: r.stderr.trim(), stdout: r.stdout.trim() };
}

describe("a bad configuration stops the start", () => {
  it.each([
    [{ PORT: "abc" }, /^Invalid configuration: PORT must be a whole number between 0 and 65535 \(got "abc"\)$/],
    [
      { LEDGER_SYNC: "sometimes" },
      /^Invalid configuration: LEDGER_SYNC must be one of full, normal \(got "sometimes"\)$/,
    ],
    [
      { NODE_ENV: "production", LOGLINE_DEMO: "0" },
      /^Invalid configuration: PUBLIC_URL is required when NODE_ENV=production/,
    ],
    [{ OFFICE_PLANNER: "llm" }, /^Invalid configuration: OFFICE_LLM_BASE_URL is required when OFFICE_PLANNER=llm/],
  ])("%j → exit 78 with one clear line", (env, line) => {
    const r = start(env as Record<string, string>);
    expect(r.code).toBe(78);
    expect(r.stderr.split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(line);
    expect(r.stdout).toBe("");
  });
});

describe("a database from a newer version", () => {
  it("refuses to start, changing nothing", () => {
    const dir = tempDir("newer-");
    cleanups.push(() => dir.cleanup());
    const path = join(dir.dir, "logline.sqlite");
    const db = openDatabase({ path });
    migrateLedger(db);
    // What a later release would have recorded after applying a migration this one lacks.
    db.prepare(`INSERT INTO "__ledger_migrations" (hash, created_at) VALUES ('future', ?)`).run(
      Date.parse("2099-01-01"),
    );
    const applied = db.prepare(`SELECT COUNT(*) FROM "__ledger_migrations"`).pluck().get();
    db.close();
    expect(() => assertSchemaNotNewer(path)).toThrow(SchemaTooNewError);

    const r = start({ DATA_DIR: dir.dir });
    expect(r.code).toBe(78);
    expect(r.stderr).toMatch(
      /was written by a newer version of LogLine \(its ledger schema has a migration from 2099-01-01/,
    );
    const after = new Database(path, { readonly: true });
    expect(after.prepare(`SELECT COUNT(*) FROM "__ledger_migrations"`).pluck().get()).toBe(applied);
    after.close();
  });

  it("accepts a database at or behind this version", () => {
    const dir = tempDir("current-");
    cleanups.push(() => dir.cleanup());
    const path = join(dir.dir, "logline.sqlite");
    const db = openDatabase({ path });
    migrateLedger(db);
    db.close();
    expect(() => assertSchemaNotNewer(path)).not.toThrow();
    expect(() => assertSchemaNotNewer(join(dir.dir, "absent.sqlite"))).not.toThrow();
  });
});
