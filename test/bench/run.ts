/**
 * `npm run bench`: prints each module's figures. Nothing is asserted; the numbers go in the README.
 * The machine's load average is printed before and after each part: other work on the same
 * cores moves every figure, so read them next to it (ratios measured side by side move less).
 */
import { readFileSync } from "node:fs";
import { runLedgerBench } from "./ledger.js";
import { runGatewayBench } from "./gateway.js";

const loadavg = () => `load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`;

const t0 = performance.now();
console.log(`node ${process.version}, ${process.platform}/${process.arch}; ${loadavg()}`);
await runLedgerBench();
console.log(loadavg());
await runGatewayBench();
console.log(loadavg());
console.log(`bench done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
