/**
 * `npm run bench`: prints each module's figures, each the median of 3 runs (the browser's: of 5),
 * beside its goal.
 * Nothing is asserted; the numbers go in docs/contribute/BENCHMARKS.md.
 * The machine's load average is printed before and after each part: other work on the same
 * cores moves every figure, so read them next to it (ratios measured side by side move less).
 */
import { cpus } from "node:os";
import { runLedgerBench } from "./ledger.js";
import { runPgLedgerBench } from "./ledger-pg.js";
import { runGatewayBench } from "./gateway.js";
import { runBrowserBench } from "./browser.js";
import { loadavg, RUNS } from "./report.js";

const t0 = performance.now();
console.log(
  `node ${process.version}, ${process.platform}/${process.arch}, ${cpus().length} cores; ${loadavg()}; each figure is the median of ${RUNS} runs`,
);
// BENCH_LEDGER_ONLY and BENCH_GATEWAY_ONLY each run one part of their module and nothing else.
const ledgerOnly = process.env.BENCH_LEDGER_ONLY;
const gatewayOnly = process.env.BENCH_GATEWAY_ONLY;
const parts: Array<[boolean, () => Promise<unknown>]> = [
  [!gatewayOnly && ledgerOnly !== "pg", runLedgerBench],
  [!gatewayOnly && (!ledgerOnly || ledgerOnly === "pg"), runPgLedgerBench],
  [!ledgerOnly, runGatewayBench],
  [!ledgerOnly && !gatewayOnly, runBrowserBench],
];
for (const [wanted, run] of parts) {
  if (!wanted) continue;
  await run();
  console.log(loadavg());
}
console.log(`bench done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
