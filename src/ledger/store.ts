import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { Statement } from "better-sqlite3";
import type { Db } from "../shared/db.js";

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

/** Applies the ledger's own migrations (tables, indexes, append-only triggers). Idempotent. */
export function migrateLedger(db: Db): void {
  migrate(drizzle(db), { migrationsFolder: MIGRATIONS, migrationsTable: "__ledger_migrations" });
}

export interface EventRow {
  tenant_id: string;
  tenant_seq: number;
  event_id: string;
  event_type: string;
  ts: string;
  conversation_id: string;
  job_id: string | null;
  trace_id: string;
  actor_entity_id: string;
  actor_type: string;
  payload: string;
  prev_hash: string;
  hash: string;
  /** The RFC 6962 hashes this row completes (ledger_tree, see schema.ts). */
  merkle: Buffer;
}

export interface CheckpointRow {
  tenant_id: string;
  tenant_seq: number;
  head_hash: string;
  signature: string;
  key_id: string;
  ts: string;
}

/** [tenant_seq, payload, prev_hash, hash] — positional rows keep the scan paths allocation-light. */
export type ScanRow = [number, string, string, string];

export interface QueryFilter {
  tenantId: string;
  conversationId?: string | undefined;
  jobId?: string | undefined;
  eventType?: string | undefined;
  afterTenantSeq: number;
  limit: number;
}

const EVENT_COLUMNS = `tenant_id, tenant_seq, event_id, event_type, ts, conversation_id, job_id, trace_id,
       actor_entity_id, actor_type, payload, prev_hash, hash`;
const EVENT_ARITY = 13;
const EVENT_VALUES = `(${Array(EVENT_ARITY).fill("?").join(",")})`;
/** Multi-row INSERT sizes, largest first: 100 rows go in as 64 + 16 + 16 + 4. */
const CHUNKS = [64, 16, 4, 1] as const;

/**
 * Every SQL statement of the ledger, prepared once. The hot paths (insert, scans) use
 * hand-written statements rather than the query builder: they run per event.
 */
export function createLedgerStore(db: Db) {
  const insertEvent = db.prepare(
    `INSERT INTO ledger_events (tenant_id, tenant_seq, event_id, event_type, ts, conversation_id, job_id, trace_id,
       actor_entity_id, actor_type, payload, prev_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTree = db.prepare(`INSERT INTO ledger_tree (seq, nodes) VALUES (?, ?)`);
  // The append path's rows wait in `pending` (13 values each, its tree nodes in `pendingNodes`)
  // until its batch ends or anything reads the table, then go in as multi-row INSERTs of
  // CHUNKS rows: two statement runs per chunk instead of two per row (see BENCHMARKS.md).
  const pending: unknown[] = [];
  const pendingNodes: Buffer[] = [];
  const chunkStatements = new Map<number, { events: Statement<unknown[]>; tree: Statement<unknown[]> }>();
  const chunkOf = (rows: number) => {
    let s = chunkStatements.get(rows);
    if (!s) {
      s = {
        events: db.prepare<unknown[]>(
          `INSERT INTO ledger_events (${EVENT_COLUMNS}) VALUES ${Array(rows).fill(EVENT_VALUES).join(",")}`,
        ),
        tree: db.prepare<unknown[]>(
          `INSERT INTO ledger_tree (seq, nodes) VALUES ${Array(rows).fill("(?,?)").join(",")}`,
        ),
      };
      chunkStatements.set(rows, s);
    }
    return s;
  };
  /** Writes the rows waiting in `pending`; each chunk's rows get consecutive row keys, the last one reported. */
  function flushEvents(): void {
    const n = pendingNodes.length;
    if (n === 0) return;
    try {
      let at = 0;
      while (at < n) {
        const rows = CHUNKS.find((c) => c <= n - at)!;
        const s = chunkOf(rows);
        const values = rows === n ? pending : pending.slice(at * EVENT_ARITY, (at + rows) * EVENT_ARITY);
        const last = Number(s.events.run(values).lastInsertRowid);
        const tree: unknown[] = new Array(rows * 2);
        for (let i = 0; i < rows; i++) {
          tree[2 * i] = last - rows + 1 + i;
          tree[2 * i + 1] = pendingNodes[at + i];
        }
        s.tree.run(tree);
        at += rows;
      }
    } finally {
      pending.length = 0;
      pendingNodes.length = 0;
    }
  }
  /** A read of the events or the tree: the rows still waiting are written first, so it sees them. */
  const fresh =
    <A extends unknown[], R>(read: (...args: A) => R) =>
    (...args: A): R => {
      flushEvents();
      return read(...args);
    };
  const insertCheckpoint = db.prepare(
    `INSERT INTO ledger_checkpoints (tenant_id, tenant_seq, head_hash, signature, key_id, ts)
     VALUES (@tenant_id, @tenant_seq, @head_hash, @signature, @key_id, @ts)`,
  );
  // Payload only: the envelope inside carries tenant_id and seq, and every extra column read
  // costs a string per row on the 1M-row boot path.
  const bootPage = db.prepare(`SELECT payload FROM ledger_events WHERE seq > ? AND seq <= ? ORDER BY seq`).pluck();
  const lastRow = db.prepare(`SELECT max(seq) FROM ledger_events`).pluck();
  const hashAt = db.prepare(`SELECT hash FROM ledger_events WHERE tenant_id = ? AND tenant_seq = ?`).pluck();
  const eventIdHeld = db.prepare(`SELECT 1 FROM ledger_events WHERE tenant_id = ? AND event_id = ?`).pluck();
  const scanAll = db.prepare(`SELECT tenant_seq, payload, prev_hash, hash FROM ledger_events ORDER BY seq`).raw(true);
  const scanTenant = db
    .prepare(
      `SELECT tenant_seq, payload, prev_hash, hash FROM ledger_events WHERE tenant_id = ? AND tenant_seq > ? ORDER BY tenant_seq`,
    )
    .raw(true);
  const latestCheckpoint = db.prepare(
    `SELECT tenant_id, tenant_seq, head_hash, signature, key_id, ts FROM ledger_checkpoints
     WHERE tenant_id = ? ORDER BY tenant_seq DESC, id DESC LIMIT 1`,
  );
  const tenantCheckpoints = db.prepare(
    `SELECT tenant_id, tenant_seq, head_hash, signature, key_id, ts FROM ledger_checkpoints WHERE tenant_id = ? ORDER BY tenant_seq, id`,
  );
  // NULL (no tree row) for an event written before the tree existed; undefined for no event.
  const merkleAt = db
    .prepare(
      `SELECT t.nodes FROM ledger_events e LEFT JOIN ledger_tree t ON t.seq = e.seq WHERE e.tenant_id = ? AND e.tenant_seq = ?`,
    )
    .pluck();
  const payloadAt = db.prepare(`SELECT payload FROM ledger_events WHERE tenant_id = ? AND tenant_seq = ?`).pluck();
  const payloadRange = db
    .prepare(
      `SELECT payload FROM ledger_events WHERE tenant_id = ? AND tenant_seq >= ? AND tenant_seq <= ? ORDER BY tenant_seq`,
    )
    .pluck();
  const unfilled = db
    .prepare(
      `SELECT e.tenant_seq, e.payload, t.nodes FROM ledger_events e LEFT JOIN ledger_tree t ON t.seq = e.seq WHERE e.tenant_id = ? ORDER BY e.tenant_seq`,
    )
    .raw(true);
  const fillMerkle = db.prepare(
    `INSERT INTO ledger_tree (seq, nodes) SELECT seq, ? FROM ledger_events WHERE tenant_id = ? AND tenant_seq = ?`,
  );
  const tenantIds = db.prepare(`SELECT DISTINCT tenant_id FROM ledger_events ORDER BY tenant_id`).pluck();
  const queryCache = new Map<string, Statement<unknown[]>>();

  return {
    // Positional binding: better-sqlite3 looks named parameters up by name on every run, which
    // cost ≈ 2 µs per row here. The append path and the bench's raw inserts share this statement.
    insertEvent(r: EventRow): void {
      flushEvents();
      const { lastInsertRowid } = insertEvent.run(
        r.tenant_id,
        r.tenant_seq,
        r.event_id,
        r.event_type,
        r.ts,
        r.conversation_id,
        r.job_id,
        r.trace_id,
        r.actor_entity_id,
        r.actor_type,
        r.payload,
        r.prev_hash,
        r.hash,
      );
      insertTree.run(lastInsertRowid, r.merkle);
    },
    /**
     * The same insert without a row object, in the columns' order: the append path's form. The
     * row is written by `flushEvents` (or before the next read of this store); `discardEvents`
     * drops rows not yet written.
     */
    insertEventValues(
      tenantId: string,
      tenantSeq: number,
      eventId: string,
      eventType: string,
      ts: string,
      conversationId: string,
      jobId: string | null,
      traceId: string,
      actorEntityId: string,
      actorType: string,
      payload: string,
      prevHash: string,
      hash: string,
      merkle: Buffer,
    ): void {
      pending.push(
        tenantId,
        tenantSeq,
        eventId,
        eventType,
        ts,
        conversationId,
        jobId,
        traceId,
        actorEntityId,
        actorType,
        payload,
        prevHash,
        hash,
      );
      pendingNodes.push(merkle);
    },
    flushEvents,
    discardEvents(): void {
      pending.length = 0;
      pendingNodes.length = 0;
    },
    insertCheckpoint: (row: CheckpointRow) => void insertCheckpoint.run(row),
    /**
     * Every payload in global order, a page of `pageSize` at a time: the boot path. A page is
     * one native call (`all`), where iterating costs one per row; memory stays one page.
     */
    *bootPayloads(pageSize = 4096): Generator<string[]> {
      const last = (lastRow.get() as number | null) ?? 0;
      // Pages by range of the row key: no OFFSET to skip, and a gap (none in an append-only
      // table) only makes a page shorter.
      for (let after = 0; after < last; after += pageSize) yield bootPage.all(after, after + pageSize) as string[];
    },
    hashAt: fresh((tenantId: string, tenantSeq: number) => hashAt.get(tenantId, tenantSeq) as string | undefined),
    /** Whether the table holds the event id (rows of the open transaction included). */
    hasEvent: fresh((tenantId: string, eventId: string) => eventIdHeld.get(tenantId, eventId) !== undefined),
    /** The tree hashes stored with one event (null on a row from before the tree, until filled). */
    merkleAt: fresh(
      (tenantId: string, tenantSeq: number) => merkleAt.get(tenantId, tenantSeq) as Buffer | null | undefined,
    ),
    payloadAt: fresh((tenantId: string, tenantSeq: number) => payloadAt.get(tenantId, tenantSeq) as string | undefined),
    /** Stored payloads of tenant_seq from..to inclusive, in order. */
    /** The `payload.message_id` of the event at tenant_seq (undefined: no event, or none in it). */
    messageIdAt: fresh((tenantId: string, tenantSeq: number) => {
      const payload = payloadAt.get(tenantId, tenantSeq) as string | undefined;
      const id: unknown = payload === undefined ? undefined : JSON.parse(payload).payload?.message_id;
      return typeof id === "string" ? id : undefined;
    }),
    payloads: fresh((tenantId: string, from: number, to: number) => payloadRange.all(tenantId, from, to) as string[]),
    /** [tenant_seq, payload, merkle] of every event of a tenant, in order (the fill-in path). */
    treeRows: fresh(
      (tenantId: string) => unfilled.iterate(tenantId) as IterableIterator<[number, string, Buffer | null]>,
    ),
    fillMerkle: (tenantId: string, tenantSeq: number, merkle: Buffer) =>
      fillMerkle.run(merkle, tenantId, tenantSeq).changes === 1,
    scan: fresh(
      (tenantId?: string, afterTenantSeq = 0) =>
        (tenantId === undefined
          ? scanAll.iterate()
          : scanTenant.iterate(tenantId, afterTenantSeq)) as IterableIterator<ScanRow>,
    ),
    latestCheckpoint: (tenantId: string) => latestCheckpoint.get(tenantId) as CheckpointRow | undefined,
    checkpoints: (tenantId: string) => tenantCheckpoints.iterate(tenantId) as IterableIterator<CheckpointRow>,
    tenants: fresh(() => tenantIds.all() as string[]),
    query(f: QueryFilter): ScanRow[] {
      flushEvents();
      // One statement per filter combination (at most 8), prepared on first use.
      const where = ["tenant_id = ?", "tenant_seq > ?"];
      const args: unknown[] = [f.tenantId, f.afterTenantSeq];
      if (f.conversationId !== undefined) where.push("conversation_id = ?"), args.push(f.conversationId);
      if (f.jobId !== undefined) where.push("job_id = ?"), args.push(f.jobId);
      if (f.eventType !== undefined) where.push("event_type = ?"), args.push(f.eventType);
      const sql = `SELECT tenant_seq, payload, prev_hash, hash FROM ledger_events WHERE ${where.join(" AND ")} ORDER BY tenant_seq LIMIT ?`;
      let stmt = queryCache.get(sql);
      if (!stmt) queryCache.set(sql, (stmt = db.prepare<unknown[]>(sql).raw(true)));
      return stmt.all(...args, f.limit) as ScanRow[];
    },
  };
}

export type LedgerStore = ReturnType<typeof createLedgerStore>;
