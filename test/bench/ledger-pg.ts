import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createLedger } from "../../src/ledger/index.js";
import { createPgLedger } from "../../src/ledger/pg/pg-ledger.js";
import { openDatabase } from "../../src/shared/db.js";
import { startPostgres } from "../support/postgres.js";
import { benchMessage, setupEvents, TENANT } from "./ledger-fixtures.js";
import { figure, RUNS } from "./report.js";

const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
const BATCHES = Number(process.env.BENCH_PG_BATCHES ?? 200);

/**
 * The ledger on PostgreSQL against the ledger on SQLite in the same run: the full append path,
 * 100 ≈ 1 KB events per request, one request at a time, on one tenant. Both durable: SQLite
 * synchronous=FULL, PostgreSQL fsync and synchronous_commit on (a cluster of Debian's server on
 * a loopback port, started for this part). Rounds alternate between the two so that load from
 * anything else weighs on both alike.
 */
export async function runPgLedgerBench(log: (line: string) => void = console.log): Promise<void> {
  const cluster = await startPostgres({ durable: true });
  const dir = mkdtempSync(join(tmpdir(), "ledger-pg-bench-"));
  try {
    log("ledger on PostgreSQL vs SQLite: 100 events/request, sequential, one tenant");
    const runs: Array<{ lite: number; pg: number }> = [];
    for (let r = 0; r < RUNS; r++) {
      const db = openDatabase({ path: join(dir, `lite-${r}.sqlite`), sync: "full" });
      const lite = createLedger({ db, dataDir: dir }).api;
      const pool = new pg.Pool({ connectionString: await cluster.createDatabase(`bench_${r}`), max: 2 });
      const onPg = await createPgLedger({ pool, dataDir: dir });
      const ledgers = [lite, onPg] as const;
      for (const l of ledgers) await l.append({ tenant_id: TENANT, events: setupEvents() });
      // warm-up: JIT both paths before timing
      for (let i = 0; i < 10; i++)
        for (const l of ledgers)
          await l.append({ tenant_id: TENANT, events: Array.from({ length: 100 }, benchMessage) });
      const ms = [0, 0];
      for (let i = 0; i < BATCHES; i++) {
        for (const [k, l] of ledgers.entries()) {
          const events = Array.from({ length: 100 }, benchMessage);
          const t = performance.now();
          await l.append({ tenant_id: TENANT, events });
          ms[k]! += performance.now() - t;
        }
      }
      runs.push({ lite: (BATCHES * 100) / (ms[0]! / 1000), pg: (BATCHES * 100) / (ms[1]! / 1000) });
      lite.close();
      db.close();
      await onPg.close();
      await pool.end();
    }
    log(
      `  (events/s in these runs: SQLite ${runs.map((f) => fmt(f.lite)).join(", ")}; PostgreSQL ${runs.map((f) => fmt(f.pg)).join(", ")})`,
    );
    figure(
      "100 events/request, PostgreSQL vs SQLite",
      runs.map((f) => (f.pg / f.lite) * 100),
      " %",
      { op: "≥", value: 50 },
    );
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
