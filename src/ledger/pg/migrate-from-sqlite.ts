import { isDeepStrictEqual } from "node:util";
import type pg from "pg";
import type { TVerifyReport } from "../../../contracts/ledger.js";
import type { Db } from "../../shared/db.js";
import { GENESIS_HASH } from "../chain.js";
import type { Head } from "../head.js";
import { createTransparencyLog } from "../merkle/log.js";
import { appendLeaf, textLeafHash } from "../merkle/rfc6962.js";
import { loadOrCreateSigner, retiredVerifiers } from "../signing.js";
import { createLedgerStore, type CheckpointRow, type LedgerStore, type ScanRow } from "../store.js";
import { verifyTenant } from "../verify.js";
import { createPgLedger } from "./pg-ledger.js";
import { migratePgLedger, pgStore, type PgEventRow } from "./store.js";

/** The target holds something that is not a prefix of the source: nothing was written. */
export class MigrationRefused extends Error {
  constructor(readonly problems: string[]) {
    super(`PostgreSQL holds a ledger that is not a prefix of this SQLite ledger; nothing was copied`);
  }
}

export interface MigrateToPgOptions {
  /** The SQLite database (read-only is enough). */
  db: Db;
  /** The PostgreSQL target, connected as the owner of schema `ledger` (it is created or migrated first). */
  pool: pg.Pool;
  /** Where the signing keys are: the checkpoint notes compared are signed with the current one. */
  dataDir: string;
  /** The log's name in signed checkpoint notes (LEDGER_LOG_NAME). */
  logName: string;
  /** Events per PostgreSQL transaction (default 1000): an interrupted copy resumes after the last one. */
  pageSize?: number;
  /** Before each tenant's copy: its id, how many are done out of how many. */
  onProgress?: (tenantId: string, done: number, total: number) => void;
}

export interface MigrationReport {
  tenants: TenantMigration[];
  /** Differences that belong to no tenant of the source (events of another tenant in PostgreSQL). */
  differences: string[];
}

/** One tenant after the copy: what was copied and what both sides say. */
interface TenantMigration {
  tenant_id: string;
  /** Events in the SQLite ledger. */
  events: number;
  /** Events PostgreSQL already held (a resumed or repeated run). */
  already: number;
  copied: number;
  checkpoints: number;
  head_hash: string;
  /** Base64 RFC 6962 root of the whole tenant log, as both sides compute it from their stored nodes. */
  root: string;
  /** Empty when both sides give the same head, checkpoints, root, checkpoint note and verify report. */
  differences: string[];
  sqlite_verify: TVerifyReport;
  pg_verify: TVerifyReport;
}

/** The row PostgreSQL stores for a SQLite row: the same bytes, the index columns read from the payload. */
function rowOf(tenantId: string, row: ScanRow, merkle: Buffer): PgEventRow {
  const [seq, payload, prevHash, hash] = row;
  const e = JSON.parse(payload) as {
    event_id: string;
    event_type: string;
    ts: string;
    conversation_id: string;
    job_id?: string;
    trace_id: string;
    actor: { entity_id: string; actor_type: string };
  };
  return {
    tenant_id: tenantId,
    tenant_seq: seq,
    event_id: e.event_id,
    event_type: e.event_type,
    ts: e.ts,
    conversation_id: e.conversation_id,
    job_id: e.job_id ?? null,
    trace_id: e.trace_id,
    actor_entity_id: e.actor.entity_id,
    actor_type: e.actor.actor_type,
    payload,
    prev_hash: prevHash,
    hash,
    merkle,
  };
}

/** Up to `limit` SQLite rows of a tenant after `after`; the statement is closed before returning. */
function sourcePage(store: LedgerStore, tenantId: string, after: number, limit: number): ScanRow[] {
  const out: ScanRow[] = [];
  const it = store.scan(tenantId, after);
  try {
    for (const row of it) {
      out.push(row);
      if (out.length === limit) break;
    }
  } finally {
    it.return?.();
  }
  return out;
}

/** Every stored column of a tenant's PostgreSQL rows after `after`, at most `limit`, in order. */
async function targetPage(pool: pg.Pool, tenantId: string, after: number, limit: number): Promise<PgEventRow[]> {
  const { rows } = await pool.query<PgEventRow & { tenant_seq: number }>(
    `SELECT tenant_id, tenant_seq::float8 AS tenant_seq, event_id, event_type, ts, conversation_id, job_id, trace_id,
       actor_entity_id, actor_type, payload, prev_hash, hash, merkle
     FROM ledger.events WHERE tenant_id = $1 AND tenant_seq > $2 ORDER BY tenant_seq LIMIT $3`,
    [tenantId, after, limit],
  );
  return rows;
}

const sameCheckpoint = (a: CheckpointRow, b: CheckpointRow) =>
  a.tenant_id === b.tenant_id &&
  Number(a.tenant_seq) === Number(b.tenant_seq) &&
  a.head_hash === b.head_hash &&
  a.signature === b.signature &&
  a.key_id === b.key_id &&
  a.ts === b.ts;

interface TenantState {
  head: Head;
  /** Checkpoints PostgreSQL holds for the tenant (each equal to the source's at that position). */
  checkpoints: number;
}

/**
 * Compares what PostgreSQL holds of a tenant with the SQLite ledger, row by row (every column, the
 * tree nodes recomputed from the payloads) and checkpoint by checkpoint. Returns the state to
 * continue from, or the first difference.
 */
async function checkPrefix(
  store: LedgerStore,
  pool: pg.Pool,
  tenantId: string,
  targetSeq: number,
  sourceCps: CheckpointRow[],
  pageSize: number,
): Promise<TenantState | string> {
  let head: Head = { seq: 0, hash: GENESIS_HASH, frontier: [] };
  while (head.seq < targetSeq) {
    const want = Math.min(pageSize, targetSeq - head.seq);
    const [src, tgt] = [sourcePage(store, tenantId, head.seq, want), await targetPage(pool, tenantId, head.seq, want)];
    if (src.length < want)
      return `PostgreSQL holds ${targetSeq} events of ${tenantId}, the SQLite ledger ${head.seq + src.length}`;
    for (const [i, row] of src.entries()) {
      const tree = appendLeaf(head.frontier, head.seq, textLeafHash(row[1]));
      const expected = rowOf(tenantId, row, Buffer.concat(tree.completed));
      const stored = tgt[i];
      if (!stored || !isDeepStrictEqual({ ...stored }, expected))
        return `event ${tenantId} #${row[0]} in PostgreSQL differs from the SQLite ledger's`;
      head = { seq: row[0], hash: row[3], frontier: tree.frontier };
    }
  }
  const stored = await pgStore.checkpoints(pool, tenantId);
  const expected = sourceCps.filter((c) => c.tenant_seq <= targetSeq);
  if (stored.length !== expected.length || stored.some((c, i) => !sameCheckpoint(c, expected[i]!)))
    return `the checkpoints of ${tenantId} in PostgreSQL differ from the SQLite ledger's`;
  return { head, checkpoints: stored.length };
}

/**
 * Copies a SQLite ledger into PostgreSQL, tenant by tenant in tenant_seq order, a page of events
 * (with the checkpoints they reach and the moved head) per transaction. A run after an
 * interrupted or earlier one continues where PostgreSQL stops, once every row and checkpoint it
 * already holds is found equal to the source; anything else (another tenant, a longer log, one
 * changed byte) refuses the whole run before anything is written. Then both sides are compared:
 * head, latest checkpoint, Merkle root from each side's stored tree nodes, the signed checkpoint
 * note, and each side's `verify` report.
 */
export async function migrateSqliteToPg(opts: MigrateToPgOptions): Promise<MigrationReport> {
  const { db, pool } = opts;
  const pageSize = opts.pageSize ?? 1000;
  const store = createLedgerStore(db);
  await migratePgLedger(pool);

  const tenants = store.tenants();
  const targetHeads = new Map((await pgStore.heads(pool)).map((h) => [h.tenant_id, h.tenant_seq]));
  const sourceCps = new Map(tenants.map((t) => [t, [...store.checkpoints(t)]]));

  // First every check, then every write: a refusal leaves PostgreSQL as it was.
  const problems: string[] = [];
  for (const t of targetHeads.keys())
    if (!sourceCps.has(t)) problems.push(`tenant ${t} is in PostgreSQL but not in the SQLite ledger`);
  const states = new Map<string, TenantState>();
  for (const t of tenants) {
    const state = await checkPrefix(store, pool, t, targetHeads.get(t) ?? 0, sourceCps.get(t)!, pageSize);
    if (typeof state === "string") problems.push(state);
    else states.set(t, state);
  }
  if (problems.length > 0) throw new MigrationRefused(problems);

  const already = new Map(tenants.map((t) => [t, states.get(t)!.head.seq]));
  for (const [n, t] of tenants.entries()) {
    opts.onProgress?.(t, n, tenants.length);
    const state = states.get(t)!;
    const cps = sourceCps.get(t)!;
    for (;;) {
      const src = sourcePage(store, t, state.head.seq, pageSize);
      const rows: PgEventRow[] = [];
      let head = state.head;
      for (const row of src) {
        const tree = appendLeaf(head.frontier, head.seq, textLeafHash(row[1]));
        rows.push(rowOf(t, row, Buffer.concat(tree.completed)));
        head = { seq: row[0], hash: row[3], frontier: tree.frontier };
      }
      const newCps = cps.slice(state.checkpoints).filter((c) => c.tenant_seq <= head.seq);
      if (rows.length === 0 && newCps.length === 0) break;
      await copyPage(pool, t, state.head, head, rows, newCps);
      state.head = head;
      state.checkpoints += newCps.length;
      if (src.length < pageSize) break;
    }
  }

  return compare(opts, store, tenants, states, already);
}

/** One transaction: the tenant's head locked and checked unmoved, the rows and checkpoints inserted, the head moved. */
async function copyPage(
  pool: pg.Pool,
  tenantId: string,
  from: Head,
  to: Head,
  rows: PgEventRow[],
  cps: CheckpointRow[],
): Promise<void> {
  const tx = await pool.connect();
  try {
    await tx.query("BEGIN");
    const locked = (await pgStore.lockHeads(tx, [tenantId], GENESIS_HASH)).get(tenantId)!;
    if (locked.seq !== from.seq || locked.hash !== from.hash)
      throw new Error(`the head of ${tenantId} in PostgreSQL moved during the copy: is a server writing to it?`);
    await pgStore.insertEvents(tx, rows);
    for (const c of cps)
      await tx.query(
        `INSERT INTO ledger.checkpoints (tenant_id, tenant_seq, head_hash, signature, key_id, ts) VALUES ($1, $2, $3, $4, $5, $6)`,
        [c.tenant_id, c.tenant_seq, c.head_hash, c.signature, c.key_id, c.ts],
      );
    if (to.seq > from.seq)
      await tx.query(`UPDATE ledger.heads SET tenant_seq = $2, hash = $3 WHERE tenant_id = $1`, [
        tenantId,
        to.seq,
        to.hash,
      ]);
    await tx.query("COMMIT");
  } catch (e) {
    await tx.query("ROLLBACK").catch(() => {});
    throw e;
  } finally {
    tx.release();
  }
}

/** Both sides, tenant by tenant: the SQLite ledger read from its file, PostgreSQL through a PostgreSQL ledger booted on it. */
async function compare(
  opts: MigrateToPgOptions,
  store: LedgerStore,
  tenants: string[],
  states: Map<string, TenantState>,
  already: Map<string, number>,
): Promise<MigrationReport> {
  const { pool, dataDir, logName } = opts;
  const signedWith = opts.db.prepare("SELECT key_id FROM ledger_checkpoints ORDER BY id DESC LIMIT 1").pluck().get() as
    | string
    | undefined;
  const signer = loadOrCreateSigner(dataDir, signedWith);
  const retired = retiredVerifiers(dataDir).filter((v) => v.keyId !== signer.keyId);
  const heads = new Map<string, Head>();
  for (const t of tenants) heads.set(t, states.get(t)!.head);
  const sqliteLog = createTransparencyLog({
    store,
    heads,
    logName,
    signer,
    retiredPublicKeys: retired.map((k) => k.publicKeyHex),
  });
  const target = await createPgLedger({ pool, migrate: false, dataDir, signer, logName, follow: false });
  try {
    const storedTenants = (await pool.query<{ t: string }>(`SELECT DISTINCT tenant_id AS t FROM ledger.events`)).rows;
    const extra = storedTenants.map((r) => r.t).filter((t) => !heads.has(t));
    const out: TenantMigration[] = [];
    for (const t of tenants) {
      const head = heads.get(t)!;
      const differences: string[] = [];
      const differ = (what: string, a: unknown, b: unknown) => {
        if (!isDeepStrictEqual(a, b))
          differences.push(`${what}: SQLite ${JSON.stringify(a)}, PostgreSQL ${JSON.stringify(b)}`);
      };
      differ("head", { tenant_seq: head.seq, hash: head.hash }, target.head(t));
      const srcCp = store.latestCheckpoint(t) ?? null;
      const pgCp = await target.checkpoint(t);
      differ("latest checkpoint", srcCp, pgCp);
      const root = sqliteLog.rootAt(t, head.seq).toString("base64");
      differ("Merkle root", root, (await target.tlog.rootAt(t, head.seq)).toString("base64"));
      differ("checkpoint note", sqliteLog.checkpointNote(t)?.note, (await target.tlog.checkpointNote(t))?.note);
      const sqliteVerify = verifyTenant(store, [signer, ...retired], t);
      const pgVerify = await target.verify(t);
      differ("verify", sqliteVerify, pgVerify);
      out.push({
        tenant_id: t,
        events: head.seq,
        already: already.get(t)!,
        copied: head.seq - already.get(t)!,
        checkpoints: states.get(t)!.checkpoints,
        head_hash: head.hash,
        root,
        differences,
        sqlite_verify: sqliteVerify,
        pg_verify: pgVerify,
      });
    }
    return {
      tenants: out,
      differences: extra.length > 0 ? [`PostgreSQL also holds events of ${extra.join(", ")}`] : [],
    };
  } finally {
    await target.close();
  }
}
