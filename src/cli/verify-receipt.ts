import { readFileSync } from "node:fs";
import { ReceiptError, verifyReceipt } from "../ledger/index.js";

/**
 * `npm run logline -- verify-receipt <file> [--key <verifier key>]`: prints what the receipt
 * proves and exits 0, or why it proves nothing and exits 1 (2: no file given or unreadable).
 */
export function verifyReceiptFile(file: string | undefined, keys: string[] | undefined): number {
  if (!file) {
    process.stderr.write("verify-receipt: the receipt file is required\n");
    return 2;
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    process.stderr.write(`verify-receipt: cannot read ${file} as JSON: ${(e as Error).message}\n`);
    return 2;
  }
  try {
    const r = verifyReceipt(json, keys);
    process.stdout.write(
      `ok: job ${r.job_id}: ${r.events} event${r.events === 1 ? "" : "s"}, included in log ${r.origin} at size ${r.tree_size}, signed by ${r.key.split("+")[0]} (${r.key})\n`,
    );
    if (!r.key_trusted)
      process.stderr.write(
        "note: the key was taken from the receipt itself; pass --key with the log's published verifier key to check who signed it\n",
      );
    return 0;
  } catch (e) {
    if (!(e instanceof ReceiptError)) throw e;
    process.stdout.write(`FAILED: ${e.message}\n`);
    return 1;
  }
}
