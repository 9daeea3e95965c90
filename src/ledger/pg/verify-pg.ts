import type pg from "pg";
import type { TVerifyReport } from "../../../contracts/ledger.js";
import type { Verifier } from "../signing.js";
import { verifyTenant } from "../verify.js";
import { pgStore } from "./store.js";

/** Rows read per round trip when verify reads a tenant's whole chain. */
const VERIFY_PAGE = 10_000;

/** `verify` of one tenant of a PostgreSQL ledger, from its stored rows and checkpoints. */
export async function verifyPgTenant(pool: pg.Pool, verifiers: Verifier[], tenantId: string): Promise<TVerifyReport> {
  const [rows, cps] = await Promise.all([readAll(pool, tenantId), pgStore.checkpoints(pool, tenantId)]);
  return verifyTenant({ scan: () => rows.values(), checkpoints: () => cps.values() }, verifiers, tenantId);
}

/**
 * Verifies a PostgreSQL ledger offline (the CLI's `verify` with DATABASE_URL): one report per
 * tenant, or for one; reads only, so it runs beside live servers.
 */
export async function verifyPgLedger(opts: {
  pool: pg.Pool;
  verifiers: Verifier[];
  tenantId?: string | undefined;
  onReport?: (report: TVerifyReport) => void;
}): Promise<TVerifyReport[]> {
  const tenants = opts.tenantId ? [opts.tenantId] : (await pgStore.heads(opts.pool)).map((h) => h.tenant_id);
  const out: TVerifyReport[] = [];
  for (const t of tenants) {
    const report = await verifyPgTenant(opts.pool, opts.verifiers, t);
    opts.onReport?.(report);
    out.push(report);
  }
  return out;
}

/** Every stored row of a tenant, in order (verify reads the whole chain). */
async function readAll(pool: pg.Pool, tenantId: string) {
  const out: Awaited<ReturnType<typeof pgStore.scanTenant>> = [];
  for (let after = 0; ; ) {
    const rows = await pgStore.scanTenant(pool, tenantId, after, VERIFY_PAGE);
    out.push(...rows);
    if (rows.length < VERIFY_PAGE) return out;
    after = rows[rows.length - 1]![0];
  }
}
