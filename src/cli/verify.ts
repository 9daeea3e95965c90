import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../shared/db.js";
import { verifyLedger } from "../ledger/index.js";
import { loadVerifier } from "../ledger/signing.js";

/**
 * `npm run verify [-- --tenant T] [--data-dir D]`: recomputes every tenant's chain and checkpoint
 * signatures from the database file and prints one line per tenant. Exit code 1 on any break,
 * 2 when there is nothing to verify with (no database or no key).
 */
const { values } = parseArgs({
  options: { tenant: { type: "string" }, "data-dir": { type: "string" } },
});
const dataDir = values["data-dir"] ?? process.env.DATA_DIR ?? "./data";
const dbPath = join(dataDir, "logline.sqlite");
if (!existsSync(dbPath)) {
  console.error(`No ledger database at ${dbPath}`);
  process.exit(2);
}
const verifier = loadVerifier(dataDir);
if (!verifier) console.error(`No signing key in ${dataDir}: every checkpoint will fail its signature check`);

const db = openDatabase({ path: dbPath });
const reports = verifyLedger({ db, verifiers: verifier ? [verifier] : [], ...(values.tenant ? { tenantId: values.tenant } : {}) });
db.close();

for (const r of reports) {
  const head = r.head ? `seq:${r.head.tenant_seq} ${r.head.hash}` : "empty";
  if (r.ok) console.log(`ok    ${r.tenant_id}  ${r.events_checked} events, ${r.checkpoints_checked} checkpoints, head ${head}`);
  else console.log(`BROKEN ${r.tenant_id}  first break at seq:${r.first_break!.tenant_seq} (${r.first_break!.reason}): ${r.first_break!.message}`);
}
if (reports.length === 0) console.log("no tenants to verify");
process.exit(reports.every((r) => r.ok) ? 0 : 1);
