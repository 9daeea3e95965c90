/**
 * The benchmark's server, in its own process so its RSS is the server's alone. Prints one JSON
 * line {url, demo, other} when listening; exits on SIGTERM. BENCH_LIMITS=default keeps the
 * production rate limits and adds a second workspace (`other`: its owner's token) for the
 * noisy-neighbour part.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "../../src/server.js";

const dataDir = mkdtempSync(join(tmpdir(), "logline-bench-"));
const quiet = { info() {}, warn() {}, error() {} };
const defaults = process.env.BENCH_LIMITS === "default";
// The benchmark drives one person far past a human's pace, so the per-entity limit is raised
// (except in the noisy-neighbour part, which measures the limits themselves).
const limits = defaults
  ? {}
  : {
      rateLimit: { capacity: 1_000_000, refillPerSecond: 1_000_000 },
      streamLimits: { perToken: 100_000, perTenant: 100_000 },
    };
const server = await createServer({
  dataDir,
  demo: true,
  logger: quiet,
  port: 0,
  host: "127.0.0.1",
  ledgerSync: process.env.LEDGER_SYNC === "normal" ? "normal" : "full",
  ...limits,
});
const { url } = await server.listen();
const other = defaults ? await server.gateway.createWorkspaceAsOperator("Neighbour Co", "Nell") : undefined;
process.stdout.write(`${JSON.stringify({ url, demo: server.demo, other })}\n`);
const stop = async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
