import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import Database from "better-sqlite3";
import type { TStoredEvent } from "../../contracts/events.js";
import { createLedger } from "../ledger/index.js";
import { canonicalize } from "../ledger/canonical-json.js";
import { GENESIS_HASH, chainHash } from "../ledger/chain.js";
import { createLedgerStore } from "../ledger/store.js";
import { toStoredEvent } from "../ledger/stored-event.js";
import { openDatabase } from "../shared/db.js";
import { assertServerStopped, databasePath } from "./data-dir.js";
import { noProgress, type Progress } from "./progress.js";

/**
 * A tenant's events as NDJSON: one stored event per line, exactly as the ledger serves it
 * (envelope with its tenant `seq`, plus `integrity.{prev_hash,hash}`), in tenant_seq order.
 * The file verifies on its own — each line's hash is BLAKE3(prev_hash ‖ canonical envelope) and
 * links to the line before — and importing it into an empty ledger reproduces the same chain,
 * hash for hash, because the envelope (ids, times, actors) is kept and seq is reassigned from 1.
 */

export interface ExportReport {
  tenant: string;
  events: number;
  head: string;
}

/** Streams one tenant's events from a database file; safe while the server runs (a WAL reader). */
export async function exportTenant(opts: { dataDir: string; tenant: string; out: Writable; progress?: Progress }): Promise<ExportReport> {
  const progress = opts.progress ?? noProgress;
  const path = databasePath(opts.dataDir);
  if (!existsSync(path)) throw new Error(`No database at ${path}`);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const total = db.prepare("SELECT COUNT(*) FROM ledger_events WHERE tenant_id = ?").pluck().get(opts.tenant) as number;
    if (total === 0) throw new Error(`Tenant ${opts.tenant} has no events in ${path}`);
    const store = createLedgerStore(db);
    let n = 0;
    let head = GENESIS_HASH;
    // A single read transaction: the export is one consistent snapshot even while appends land.
    db.exec("BEGIN");
    try {
      for (const row of store.scan(opts.tenant, 0)) {
        const event = toStoredEvent(row);
        head = event.integrity.hash;
        if (!opts.out.write(JSON.stringify(event) + "\n")) await once(opts.out, "drain");
        progress.update(++n, total);
      }
    } finally {
      db.exec("COMMIT");
    }
    progress.done(`${n.toLocaleString("en")} events of ${opts.tenant}, head ${head}`);
    return { tenant: opts.tenant, events: n, head };
  } finally {
    db.close();
  }
}

export async function exportTenantToFile(opts: { dataDir: string; tenant: string; file: string; progress?: Progress }): Promise<ExportReport> {
  const out = createWriteStream(opts.file, { mode: 0o600 });
  try {
    return await exportTenant({ ...opts, out });
  } finally {
    out.end();
    await once(out, "close");
  }
}

export interface ExportCheck {
  tenant: string;
  events: TStoredEvent[];
  head: string;
}

/**
 * Reads and checks an export file: one tenant, seq 1..n without gaps, every hash recomputed and
 * linked. Names the first bad line, so a truncated or edited file is refused before anything is
 * written.
 */
export async function readExport(file: string, progress: Progress = noProgress): Promise<ExportCheck> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  const events: TStoredEvent[] = [];
  let tenant: string | undefined;
  let prev = GENESIS_HASH;
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === "") continue;
    let e: TStoredEvent;
    try {
      e = JSON.parse(line) as TStoredEvent;
    } catch {
      throw new Error(`${file}:${lineNo}: not JSON`);
    }
    tenant ??= e.tenant_id;
    if (e.tenant_id !== tenant) throw new Error(`${file}:${lineNo}: tenant ${e.tenant_id} in an export of ${tenant}`);
    if (e.seq !== events.length + 1) throw new Error(`${file}:${lineNo}: seq ${e.seq} where ${events.length + 1} was expected (missing or reordered lines)`);
    const { integrity, ...envelope } = e;
    if (!integrity || integrity.prev_hash !== prev) throw new Error(`${file}:${lineNo}: seq ${e.seq} does not link to the line before`);
    if (chainHash(prev, canonicalize(envelope)) !== integrity.hash) throw new Error(`${file}:${lineNo}: seq ${e.seq} hash mismatch (the event was edited)`);
    prev = integrity.hash;
    events.push(e);
    progress.update(events.length);
  }
  if (!tenant) throw new Error(`${file}: no events`);
  return { tenant, events, head: prev };
}

export interface ImportReport {
  tenant: string;
  events: number;
  head: string;
}

/**
 * Imports an export into DATA_DIR through the ledger's own append (policy pack included), with the
 * server stopped. Refuses a tenant that already has events: the chain can only be reproduced from
 * genesis. The result must end on the file's head hash, or the import says so.
 */
export async function importTenant(opts: { dataDir: string; file: string; progress?: Progress; batch?: number }): Promise<ImportReport> {
  const progress = opts.progress ?? noProgress;
  assertServerStopped(opts.dataDir, "import");
  const check = await readExport(opts.file);
  const db = openDatabase({ path: databasePath(opts.dataDir) });
  const ledger = createLedger({ db, dataDir: opts.dataDir });
  try {
    if (ledger.head(check.tenant).tenant_seq > 0) {
      throw new Error(`Tenant ${check.tenant} already has events in ${opts.dataDir}; import only into a data dir without it`);
    }
    const size = opts.batch ?? 500;
    for (let i = 0; i < check.events.length; i += size) {
      const events = check.events.slice(i, i + size).map(({ integrity: _i, seq: _s, ...envelope }) => envelope);
      try {
        await ledger.append({ tenant_id: check.tenant, events });
      } catch (err) {
        throw new Error(`import stopped at seq ${i + 1}..${i + events.length}: ${(err as Error).message}`, { cause: err });
      }
      progress.update(Math.min(i + size, check.events.length), check.events.length);
    }
    const head = ledger.head(check.tenant);
    if (head.hash !== check.head) throw new Error(`imported chain ends on ${head.hash}, the export on ${check.head}`);
    const verify = ledger.verify(check.tenant);
    if (!verify.ok) throw new Error(`imported ledger does not verify: ${verify.first_break?.message}`);
    progress.done(`${check.events.length.toLocaleString("en")} events of ${check.tenant}, head ${head.hash}`);
    return { tenant: check.tenant, events: check.events.length, head: head.hash };
  } finally {
    ledger.close();
    db.close();
  }
}
