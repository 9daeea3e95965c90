import type { TVerifyReport } from "../../contracts/ledger.js";
import type { Db } from "../shared/db.js";
import type { Verifier } from "./signing.js";
import { createLedgerStore } from "./store.js";
import { verifyTenant } from "./verify.js";

export interface VerifyLedgerOptions {
  db: Db;
  /** Keys whose checkpoint signatures count; a checkpoint signed by any other key is a break. */
  verifiers: Verifier[];
  /** One tenant, or every tenant in the table. */
  tenantId?: string | undefined;
  /** Before each tenant: how many are done out of how many. */
  onProgress?: (done: number, total: number) => void;
  /** Each tenant's report as soon as it is ready (the CLI prints it then). */
  onReport?: (report: TVerifyReport) => void;
}

/** Verifies a ledger database offline (the CLI's core): one report per tenant. */
export function verifyLedger(opts: VerifyLedgerOptions): TVerifyReport[] {
  const store = createLedgerStore(opts.db);
  const tenants = opts.tenantId ? [opts.tenantId] : store.tenants();
  return tenants.map((t, i) => {
    opts.onProgress?.(i, tenants.length);
    const report = verifyTenant(store, opts.verifiers, t);
    opts.onReport?.(report);
    return report;
  });
}
