import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { databasePath } from "../../src/ops/data-dir.js";
import { createOpsRuntime } from "../../src/ops/runtime.js";
import { createServer } from "../../src/server.js";
import { openDatabase } from "../../src/shared/db.js";
import { built } from "../support/built.js";

/**
 * Damage outside the ledger's tables (a gateway page here) is noticed: `/readyz` answers 503
 * from the boot-time quick check, and `verify` reports the database BROKEN and exits 1.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const quiet = {
  info() {},
  warn() {},
  error() {},
  fatal() {},
  debug() {},
  child() {
    return quiet;
  },
} as never;
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function dataDirWithHistory() {
  dir = mkdtempSync(join(tmpdir(), "logline-damage-"));
  const s = await createServer({
    dataDir: dir,
    demo: true,
    logger: quiet,
    ledgerSync: "normal",
    port: 0,
    host: "127.0.0.1",
  });
  await s.close();
}

/** Overwrites the first byte of a table's root page (its b-tree page type) in the closed database file. */
function damageTable(table: string) {
  const db = new Database(databasePath(dir));
  const root = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = ?").pluck().get(table) as number;
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  expect(root).toBeGreaterThan(1);
  const fd = openSync(databasePath(dir), "r+");
  writeSync(fd, Buffer.from([0x00]), 0, 1, (root - 1) * pageSize);
  closeSync(fd);
}

const verify = () =>
  spawnSync(process.execPath, [built("src/cli/logline.ts"), "verify"], {
    cwd: root,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: dir },
    timeout: 30_000,
  });

async function readyz() {
  const ops = createOpsRuntime({
    logger: quiet,
    dataDir: dir,
    planner: () => ({ kind: "rules" }),
    shutdownTimeoutMs: 5000,
  });
  const db = openDatabase({ path: databasePath(dir), sync: "normal" });
  try {
    ops.setProbeDb(db);
    ops.markBooted();
    const r = await ops.routes.request("/readyz");
    return {
      status: r.status,
      body: (await r.json()) as { checks: Record<string, { ok: boolean; quick_check?: unknown }> },
    };
  } finally {
    db.close();
  }
}

describe("damage outside the ledger", () => {
  it("an intact database: verify ok for the ledger and every table; ready", async () => {
    await dataDirWithHistory();
    const v = verify();
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/^ok +database +integrity_check of every table$/m);
    const r = await readyz();
    expect(r.status).toBe(200);
    expect(r.body.checks.structure).toEqual({ ok: true, quick_check: "ok" });
  });

  it("a damaged gateway page: the ledger still verifies, but verify says BROKEN database and /readyz is 503", async () => {
    await dataDirWithHistory();
    damageTable("gateway_tokens");
    const v = verify();
    expect(v.status).toBe(1);
    expect(v.stdout).toMatch(/^ok +tnt_acme_001/m);
    expect(v.stdout).toMatch(/^BROKEN database +integrity_check: .+/m);
    const r = await readyz();
    expect(r.status).toBe(503);
    expect(r.body.checks.structure!.ok).toBe(false);
    expect(JSON.stringify(r.body.checks.structure!.quick_check)).toMatch(/malformed|page/i);
  });
});
