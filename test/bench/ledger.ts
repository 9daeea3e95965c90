import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase, type Db } from "../../src/shared/db.js";
import { createLedger } from "../../src/ledger/index.js";
import { canonicalize } from "../../src/ledger/canonical-json.js";
import { chainHash, GENESIS_HASH } from "../../src/ledger/chain.js";
import { appendLeaf, textLeafHash } from "../../src/ledger/merkle/rfc6962.js";
import { createLedgerStore, migrateLedger, type EventRow } from "../../src/ledger/store.js";
import { benchMessage, setupEvents, TENANT } from "./ledger-fixtures.js";
import { figure, loadavg, RUNS } from "./report.js";

/**
 * Ledger throughput on the same ≈ 1 KB events, synchronous=FULL throughout:
 * the full append path (policy pack + fold, canonical JSON, BLAKE3 chain, Ed25519 checkpoint,
 * insert, one fsync per commit) against raw better-sqlite3 inserts of identical rows into an
 * identical table in the same process; then boot replay of 1M events in a child process.
 */
export interface LedgerBenchFigures {
  lines: string[];
}

const REPLAY_EVENTS = Number(process.env.BENCH_REPLAY_EVENTS ?? 1_000_000);

function rate(n: number, ms: number) {
  return n / (ms / 1000);
}
const fmt = (x: number) => Math.round(x).toLocaleString("en-US");

/** Rows exactly as the ledger would store them (canonical payload, chained hashes, tree hashes), for raw inserts. */
function buildRows(
  count: number,
  startSeq: number,
  prev: string,
  frontier: readonly Buffer[] = [],
): { rows: EventRow[]; head: string; frontier: readonly Buffer[] } {
  const rows: EventRow[] = [];
  for (let i = 0; i < count; i++) {
    const e = { ...benchMessage(), seq: startSeq + i };
    const payload = canonicalize(e);
    const hash = chainHash(prev, payload);
    const tree = appendLeaf(frontier, e.seq - 1, textLeafHash(payload));
    frontier = tree.frontier;
    rows.push({
      tenant_id: e.tenant_id,
      tenant_seq: e.seq,
      event_id: e.event_id,
      event_type: e.event_type,
      ts: e.ts,
      conversation_id: e.conversation_id,
      job_id: null,
      trace_id: e.trace_id,
      actor_entity_id: e.actor.entity_id,
      actor_type: e.actor.actor_type,
      payload,
      prev_hash: prev,
      hash,
      merkle: Buffer.concat(tree.completed),
    });
    prev = hash;
  }
  return { rows, head: prev, frontier };
}

/**
 * Raw better-sqlite3 inserts of `batches` × 100 ≈ 1 KB rows into a fresh ledger table
 * (synchronous=FULL, one transaction per 100 rows): the baseline every append figure is a share of.
 */
export function rawBatchedRate(batches: number): number {
  const dir = mkdtempSync(join(tmpdir(), "ledger-raw-"));
  try {
    const db = openDatabase({ path: join(dir, "raw.sqlite"), sync: "full" });
    migrateLedger(db);
    const { rows } = buildRows(batches * 100, 1, GENESIS_HASH);
    rawInsert(db, rows.slice(0, 1000), 100); // warm-up
    const ms = rawInsert(db, rows.slice(1000), 100);
    db.close();
    return rate(rows.length - 1000, ms);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU time (user + system) of this process so far, in µs: what the load moves less than wall time. */
const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

function rawInsert(db: Db, rows: EventRow[], perTx: number): number {
  const store = createLedgerStore(db);
  const tx = db.transaction((chunk: EventRow[]) => chunk.forEach(store.insertEvent));
  const t0 = performance.now();
  for (let i = 0; i < rows.length; i += perTx) tx.immediate(rows.slice(i, i + perTx));
  return performance.now() - t0;
}

export async function runLedgerBench(log: (line: string) => void = console.log): Promise<LedgerBenchFigures> {
  const lines: string[] = [];
  const out = (s: string) => (lines.push(s), log(s));
  const dir = mkdtempSync(join(tmpdir(), "ledger-bench-"));
  try {
    const payloadBytes = canonicalize({ ...benchMessage(), seq: 1 }).length;
    out(`ledger: events of ${payloadBytes} bytes canonical JSON, synchronous=FULL, WAL`);

    if (process.env.BENCH_LEDGER_ONLY !== "replay") {
      const runs: AppendFigures[] = [];
      for (let r = 0; r < RUNS; r++) runs.push(await appendParts(join(dir, `append-${r}`)));
      out(
        `  (raw 100-row transactions in these runs: ${runs.map((f) => fmt(f.rawBatched)).join(", ")} rows/s; full path ${runs.map((f) => fmt(f.fullBatched)).join(", ")} events/s)`,
      );
      figure(
        "1 event/request, sequential, full path vs raw 1-row tx",
        runs.map((f) => f.singleRatio * 100),
        " %",
      );
      figure(
        "1 event/request, 64 in flight (group commit), × raw 1-row tx",
        runs.map((f) => f.concurrentX),
        "×",
        undefined,
        1,
      );
      figure(
        "100 events/request in-process, full path vs raw 100-row tx",
        runs.map((f) => f.batchedRatio * 100),
        " %",
        { op: "≥", value: 50 },
      );
      figure(
        "100 events/request in-process, CPU per event: full path",
        runs.map((f) => f.fullBatchedCpuUs),
        " µs",
        undefined,
        1,
      );
      figure(
        "100 events/request in-process, CPU per event: raw 100-row tx",
        runs.map((f) => f.rawBatchedCpuUs),
        " µs",
        undefined,
        1,
      );
      console.log(`  ${loadavg()}`);
    }
    if (process.env.BENCH_LEDGER_ONLY !== "append") {
      const fixture = buildReplayFixture(join(dir, "replay"));
      out(`  replay fixture: ${fmt(REPLAY_EVENTS)} events built in ${fixture.buildSecs.toFixed(0)} s`);
      const runs: ReplayFigures[] = [];
      for (let r = 0; r < RUNS; r++) runs.push(measureReplay(fixture.path, join(dir, "replay")));
      out(
        `  (raw SELECT of every payload, no parse, in these runs: ${runs.map((f) => fmt(f.rawScanPerSec)).join(", ")} rows/s)`,
      );
      figure(
        `boot replay of ${fmt(runs[0]!.events)} events into the fold, events/s`,
        runs.map((f) => f.eventsPerSec),
        "",
        { op: "≥", value: 300_000 },
      );
      figure(
        "boot replay, events per second of CPU time",
        runs.map((f) => f.eventsPerCpuSec),
        "",
      );
      figure(
        "boot replay, peak RSS",
        runs.map((f) => f.peakRssMiB),
        " MiB",
        { op: "≤", value: 300 },
      );
      console.log(`  ${loadavg()}`);
    }
    return { lines };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface AppendFigures {
  singleRatio: number;
  concurrentX: number;
  batchedRatio: number;
  fullBatched: number;
  rawBatched: number;
  /** CPU time per event of the same timed sections (the fsync's wait is not CPU time). */
  fullBatchedCpuUs: number;
  rawBatchedCpuUs: number;
}

/** Appends through the full path and raw inserts of the same rows, interleaved. */
async function appendParts(dir: string): Promise<AppendFigures> {
  // Full path and raw inserts run interleaved, round by round, so load from anything else on
  // the machine weighs on both sides of each ratio alike.
  const db = openDatabase({ path: join(dir, "full", "logline.sqlite"), sync: "full" });
  const ledger = createLedger({ db, dataDir: join(dir, "full") }).api;
  await ledger.append({ tenant_id: TENANT, events: setupEvents() });
  const rawDb = openDatabase({ path: join(dir, "raw", "raw.sqlite"), sync: "full" });
  migrateLedger(rawDb);

  const SINGLE = 400;
  const BATCHES = 300;
  const { rows } = buildRows(SINGLE + BATCHES * 100, 1, GENESIS_HASH);
  // warm-up: JIT both paths before timing
  for (let i = 0; i < 20; i++)
    await ledger.append({ tenant_id: TENANT, events: Array.from({ length: 100 }, benchMessage) });

  let fullSingleMs = 0;
  let rawSingleMs = 0;
  for (let i = 0; i < SINGLE; i++) {
    const t = performance.now();
    await ledger.append({ tenant_id: TENANT, events: [benchMessage()] });
    fullSingleMs += performance.now() - t;
    rawSingleMs += rawInsert(rawDb, rows.slice(i, i + 1), 1);
  }
  let fullBatchedMs = 0;
  let rawBatchedMs = 0;
  let fullBatchedCpu = 0;
  let rawBatchedCpu = 0;
  for (let i = 0; i < BATCHES; i++) {
    const events = Array.from({ length: 100 }, benchMessage);
    const batchRows = rows.slice(SINGLE + i * 100, SINGLE + (i + 1) * 100);
    let c = cpuMicros();
    const t = performance.now();
    await ledger.append({ tenant_id: TENANT, events });
    fullBatchedMs += performance.now() - t;
    fullBatchedCpu += cpuMicros() - c;
    c = cpuMicros();
    rawBatchedMs += rawInsert(rawDb, batchRows, 100);
    rawBatchedCpu += cpuMicros() - c;
  }
  const CONCURRENT = 6000;
  const IN_FLIGHT = 64;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < CONCURRENT) await ledger.append({ tenant_id: TENANT, events: [benchMessage()] });
    }),
  );
  const fullConcurrent = rate(CONCURRENT, performance.now() - t0);
  ledger.close();
  db.close();
  rawDb.close();

  const fullSingle = rate(SINGLE, fullSingleMs);
  const rawSingle = rate(SINGLE, rawSingleMs);
  const fullBatched = rate(BATCHES * 100, fullBatchedMs);
  const rawBatched = rate(BATCHES * 100, rawBatchedMs);
  return {
    singleRatio: fullSingle / rawSingle,
    concurrentX: fullConcurrent / rawSingle,
    batchedRatio: fullBatched / rawBatched,
    fullBatched,
    rawBatched,
    fullBatchedCpuUs: fullBatchedCpu / (BATCHES * 100),
    rawBatchedCpuUs: rawBatchedCpu / (BATCHES * 100),
  };
}

interface ReplayFigures {
  events: number;
  ms: number;
  eventsPerSec: number;
  /** Events per second of the boot's CPU time (user + system): what the load moves least. */
  eventsPerCpuSec: number;
  /** Raw SQLite reading every payload in the same child, right after the boot. */
  rawScanPerSec: number;
  peakRssMiB: number;
  rssBeforeMiB: number;
}

/** A ledger database of REPLAY_EVENTS events, written directly (building it is not measured). */
function buildReplayFixture(replayDir: string): { path: string; buildSecs: number } {
  const replayPath = join(replayDir, "logline.sqlite");
  const build = openDatabase({ path: replayPath, sync: "normal" });
  migrateLedger(build);
  build.pragma("synchronous = OFF"); // building the fixture, not measuring it
  const setup = setupEvents();
  let prev = GENESIS_HASH;
  let frontier: readonly Buffer[] = [];
  const setupRows = setup.map((e, i) => {
    const payload = canonicalize({ ...e, seq: i + 1 });
    const hash = chainHash(prev, payload);
    const tree = appendLeaf(frontier, i, textLeafHash(payload));
    frontier = tree.frontier;
    const row: EventRow = {
      tenant_id: e.tenant_id,
      tenant_seq: i + 1,
      event_id: e.event_id,
      event_type: e.event_type,
      ts: e.ts,
      conversation_id: e.conversation_id,
      job_id: null,
      trace_id: e.trace_id,
      actor_entity_id: e.actor.entity_id,
      actor_type: e.actor.actor_type,
      payload,
      prev_hash: prev,
      hash,
      merkle: Buffer.concat(tree.completed),
    };
    prev = hash;
    return row;
  });
  rawInsert(build, setupRows, 10);
  const t0 = performance.now();
  for (let seq = 3; seq <= REPLAY_EVENTS; seq += 20_000) {
    const chunk = buildRows(Math.min(20_000, REPLAY_EVENTS - seq + 1), seq, prev, frontier);
    prev = chunk.head;
    frontier = chunk.frontier;
    rawInsert(build, chunk.rows, 20_000);
  }
  build.pragma("wal_checkpoint(TRUNCATE)");
  build.close();
  const buildSecs = (performance.now() - t0) / 1000;

  return { path: replayPath, buildSecs };
}

/** Boots a ledger on the fixture in a child process (its peak RSS is the boot's). */
function measureReplay(replayPath: string, replayDir: string): ReplayFigures {
  const child = fileURLToPath(new URL("./ledger-replay.ts", import.meta.url));
  // BENCH_REPLAY_CPU_PROF=<dir>: the replay child writes a CPU profile there.
  const replayProf = process.env.BENCH_REPLAY_CPU_PROF
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_REPLAY_CPU_PROF}`]
    : [];
  return JSON.parse(
    execFileSync(process.execPath, [...replayProf, "--import", "tsx", child, replayPath, replayDir], {
      encoding: "utf8",
    }),
  ) as ReplayFigures;
}
