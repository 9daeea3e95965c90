/**
 * `npm run bench`: prints each module's figures. Nothing is asserted; the numbers go in the README.
 */
import { runLedgerBench } from "./ledger.js";

const t0 = performance.now();
console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
await runLedgerBench();
console.log(`bench done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
