import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import Database from "better-sqlite3";
import type { TStoredEvent } from "../../contracts/events.js";
import {
  GENESIS_HASH,
  countTenantEvents,
  createChainChecker,
  createLedger,
  importVerifiedEvents,
  readTenantEvents,
} from "../ledger/index.js";
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
export async function exportTenant(opts: {
  dataDir: string;
  tenant: string;
  out: Writable;
  progress?: Progress;
}): Promise<ExportReport> {
  const progress = opts.progress ?? noProgress;
  const path = databasePath(opts.dataDir);
  if (!existsSync(path)) throw new Error(`No database at ${path}`);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const total = countTenantEvents(db, opts.tenant);
    if (total === 0) throw new Error(`Tenant ${opts.tenant} has no events in ${path}`);
    let n = 0;
    let head = GENESIS_HASH;
    // One read transaction (inside readTenantEvents): a consistent snapshot while appends land.
    for (const event of readTenantEvents(db, opts.tenant)) {
      head = event.integrity.hash;
      if (!opts.out.write(`${JSON.stringify(event)}\n`)) await once(opts.out, "drain");
      progress.update(++n, total);
    }
    progress.done(`${n.toLocaleString("en")} events of ${opts.tenant}, head ${head}`);
    return { tenant: opts.tenant, events: n, head };
  } finally {
    db.close();
  }
}

export async function exportTenantToFile(opts: {
  dataDir: string;
  tenant: string;
  file: string;
  progress?: Progress;
}): Promise<ExportReport> {
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
  const chain = createChainChecker();
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
    if (e.seq !== events.length + 1)
      throw new Error(
        `${file}:${lineNo}: seq ${e.seq} where ${events.length + 1} was expected (missing or reordered lines)`,
      );
    const link = chain.check(e);
    if (!link.ok && link.reason === "unlinked")
      throw new Error(`${file}:${lineNo}: seq ${e.seq} does not link to the line before`);
    if (!link.ok) throw new Error(`${file}:${lineNo}: seq ${e.seq} hash mismatch (the event was edited)`);
    events.push(e);
    progress.update(events.length);
  }
  if (!tenant) throw new Error(`${file}: no events`);
  return { tenant, events, head: chain.head() };
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
export async function importTenant(opts: {
  dataDir: string;
  file: string;
  progress?: Progress;
  batch?: number;
}): Promise<ImportReport> {
  const progress = opts.progress ?? noProgress;
  assertServerStopped(opts.dataDir, "import");
  const check = await readExport(opts.file);
  const db = openDatabase({ path: databasePath(opts.dataDir) });
  const ledger = createLedger({ db, dataDir: opts.dataDir }).api;
  try {
    if (ledger.head(check.tenant).tenant_seq > 0) {
      throw new Error(
        `Tenant ${check.tenant} already has events in ${opts.dataDir}; import only into a data dir without it`,
      );
    }
    const r = await importVerifiedEvents(ledger, check.tenant, check.events, {
      ...(opts.batch ? { batch: opts.batch } : {}),
      onProgress: (done, total) => progress.update(done, total),
    });
    if (r.head !== check.head) throw new Error(`imported chain ends on ${r.head}, the export on ${check.head}`);
    progress.done(`${r.events.toLocaleString("en")} events of ${check.tenant}, head ${r.head}`);
    return { tenant: check.tenant, events: r.events, head: r.head };
  } finally {
    ledger.close();
    db.close();
  }
}
