import { existsSync } from "node:fs";
import type { TVerifyReport } from "../../contracts/ledger.js";
import Database from "better-sqlite3";
import { loadVerifiers, verifyLedger } from "../ledger/index.js";
import { databasePath } from "../ops/data-dir.js";
import { createProgress } from "../ops/progress.js";

/**
 * The one verify behind both `npm run verify` and `npm run logline -- verify`, so they print the
 * same lines and exit with the same codes: 0 every chain verifies, 1 a break (or no database).
 * Output: one line per tenant on stdout, `ok` or `BROKEN` with the first break, then one for
 * SQLite's integrity check of the whole database.
 */
export function verifyDataDir(dataDir: string, tenant: string | undefined): number {
  const path = databasePath(dataDir);
  if (!existsSync(path)) {
    process.stderr.write(`No database at ${path}\n`);
    return 1;
  }
  const verifiers = loadVerifiers(dataDir);
  if (verifiers.length === 0)
    process.stderr.write(`No signing key in ${dataDir}: every checkpoint will fail its signature check\n`);
  // Read-only: verify runs safely beside a live server.
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const progress = createProgress("verify");
    let broken = 0;
    const reports = verifyLedger({
      db,
      verifiers,
      tenantId: tenant,
      onProgress: (done, total) => progress.update(done, total),
      onReport(r) {
        if (!printReport(r)) broken++;
      },
    });
    progress.done(reports.length === 0 ? "no tenants" : `${reports.length} tenant(s), ${broken} broken`);
    // Then every table, not only the ledger's: Office's, the gateway's, their indexes.
    let integrity: string[];
    try {
      integrity = db.prepare("PRAGMA integrity_check(10)").pluck().all() as string[];
    } catch (err) {
      integrity = [(err as Error).message];
    }
    if (integrity.length === 1 && integrity[0] === "ok")
      process.stdout.write("ok     database  integrity_check of every table\n");
    else {
      broken++;
      process.stdout.write(`BROKEN database  integrity_check: ${integrity.join("; ").slice(0, 500)}\n`);
    }
    return broken ? 1 : 0;
  } finally {
    db.close();
  }
}

/** One tenant's verify line on stdout: `ok` with its head, or `BROKEN` with the first break. Returns whether it is ok. */
export function printReport(r: TVerifyReport): boolean {
  const head = r.head ? `seq:${r.head.tenant_seq} ${r.head.hash}` : "empty";
  if (r.ok)
    process.stdout.write(
      `ok     ${r.tenant_id}  ${r.events_checked} events, ${r.checkpoints_checked} checkpoints, head ${head}\n`,
    );
  else
    process.stdout.write(
      `BROKEN ${r.tenant_id}  first break at seq:${r.first_break!.tenant_seq} (${r.first_break!.reason}): ${r.first_break!.message}\n`,
    );
  return r.ok;
}
