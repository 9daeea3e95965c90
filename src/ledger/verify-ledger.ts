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
  tenantId?: string;
}

/** Verifies a ledger database offline (the CLI's core): one report per tenant. */
export function verifyLedger(opts: VerifyLedgerOptions): TVerifyReport[] {
  const store = createLedgerStore(opts.db);
  const tenants = opts.tenantId ? [opts.tenantId] : store.tenants();
  return tenants.map((t) => verifyTenant(store, opts.verifiers, t));
}
