import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import pg from "pg";
import { loadVerifiers, migrateSqliteToPg, MigrationRefused, verifyPgLedger } from "../ledger/index.js";
import { assertServerStopped, databasePath } from "../ops/data-dir.js";
import { createProgress } from "../ops/progress.js";
import { printReport } from "./verify-command.js";

/**
 * `migrate-to-pg`: copies the SQLite ledger of `dataDir` into the PostgreSQL at `url`, then
 * compares both sides. One line per tenant on stdout, `ok` or `DIFFERS`; exit 0 when every tenant
 * is the same on both sides, 1 on a refusal or a difference.
 */
export async function migrateToPg(dataDir: string, url: string, logName: string): Promise<number> {
  const path = databasePath(dataDir);
  if (!existsSync(path)) {
    process.stderr.write(`No database at ${path}\n`);
    return 1;
  }
  assertServerStopped(dataDir, "migrate-to-pg");
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const progress = createProgress("migrate-to-pg");
  try {
    const report = await migrateSqliteToPg({
      db,
      pool,
      dataDir,
      logName,
      onProgress: (_t, done, total) => progress.update(done, total),
    });
    progress.done(`${report.tenants.length} tenant(s)`);
    let differing = 0;
    for (const t of report.tenants) {
      const what = `${t.events} events (${t.copied} copied, ${t.already} already there), ${t.checkpoints} checkpoints, head seq:${t.events} ${t.head_hash}, root ${t.root}`;
      if (t.differences.length === 0) process.stdout.write(`ok      ${t.tenant_id}  ${what}\n`);
      else {
        differing++;
        process.stdout.write(`DIFFERS ${t.tenant_id}  ${what}\n`);
        for (const d of t.differences) process.stdout.write(`          ${d}\n`);
      }
      if (!t.sqlite_verify.ok) {
        differing++;
        process.stdout.write(
          `BROKEN  ${t.tenant_id}  verify fails on both sides: ${t.sqlite_verify.first_break?.message}\n`,
        );
      }
    }
    for (const d of report.differences) {
      differing++;
      process.stdout.write(`DIFFERS ${d}\n`);
    }
    const copied = report.tenants.reduce((n, t) => n + t.copied, 0);
    process.stdout.write(
      differing === 0
        ? `migrated ${report.tenants.length} tenant(s), ${copied} event(s) copied; both sides give the same hashes, checkpoints, Merkle roots and verify reports\n`
        : `${differing} problem(s): see above\n`,
    );
    return differing === 0 ? 0 : 1;
  } catch (err) {
    if (!(err instanceof MigrationRefused)) throw err;
    progress.done("refused");
    process.stderr.write(`${err.message}\n`);
    for (const p of err.problems) process.stderr.write(`  ${p}\n`);
    return 1;
  } finally {
    await pool.end();
    db.close();
  }
}

/** `verify` with DATABASE_URL: the PostgreSQL ledger's chains and checkpoints, the same lines as for SQLite. */
export async function verifyPg(dataDir: string, url: string, tenant: string | undefined): Promise<number> {
  const verifiers = loadVerifiers(dataDir);
  if (verifiers.length === 0)
    process.stderr.write(`No signing key in ${dataDir}: every checkpoint will fail its signature check\n`);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const progress = createProgress("verify");
    let broken = 0;
    const reports = await verifyPgLedger({
      pool,
      verifiers,
      tenantId: tenant,
      onReport(r) {
        if (!printReport(r)) broken++;
      },
    });
    progress.done(reports.length === 0 ? "no tenants" : `${reports.length} tenant(s), ${broken} broken`);
    return broken ? 1 : 0;
  } finally {
    await pool.end();
  }
}
