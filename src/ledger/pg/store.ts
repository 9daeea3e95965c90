import { fileURLToPath } from "node:url";
import type pg from "pg";
import { migrateModule } from "../../shared/pg-migrate.js";
import type { CheckpointRow, ScanRow } from "../store.js";

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

/** Any number will do as long as no other code takes it: boot-time migrations run one at a time. */
const MIGRATION_LOCK = 0x4c4f474c; // "LOGL"

/**
 * Applies the ledger's PostgreSQL migrations (schema `ledger`, tables, append-only triggers, the
 * `logline_ledger_writer` role) as the database owner, under an advisory lock so processes
 * booting together do not race. Idempotent.
 */
export function migratePgLedger(pool: pg.Pool): Promise<void> {
  return migrateModule(pool, { migrationsFolder: MIGRATIONS, schema: "ledger", lock: MIGRATION_LOCK });
}

/** A row as the append path writes it; `merkle` is the RFC 6962 nodes the event completes. */
export interface PgEventRow {
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
  merkle: Buffer;
}

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

const num = (v: string | number) => Number(v);

/** [tenant_seq, payload, prev_hash, hash], as SQLite's scans return them. */
const SCAN_COLUMNS = "tenant_seq::float8 AS s, payload, prev_hash, hash";
const toScanRows = (rows: unknown[][]): ScanRow[] => rows as ScanRow[];

/** Every SQL statement of the ledger on PostgreSQL. */
export const pgStore = {
  /** Rows of one batch in one statement: arrays per column, unnested. */
  async insertEvents(q: Queryable, rows: PgEventRow[]): Promise<void> {
    if (rows.length === 0) return;
    const col = <K extends keyof PgEventRow>(k: K) => rows.map((r) => r[k]);
    await q.query(
      `INSERT INTO ledger.events (tenant_id, tenant_seq, event_id, event_type, ts, conversation_id, job_id, trace_id,
         actor_entity_id, actor_type, payload, prev_hash, hash, merkle)
       SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
         $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::bytea[])`,
      [
        col("tenant_id"),
        col("tenant_seq"),
        col("event_id"),
        col("event_type"),
        col("ts"),
        col("conversation_id"),
        col("job_id"),
        col("trace_id"),
        col("actor_entity_id"),
        col("actor_type"),
        col("payload"),
        col("prev_hash"),
        col("hash"),
        col("merkle"),
      ],
    );
  },

  /**
   * Locks the heads of `tenantIds` (sorted, so two groups never wait on each other in a cycle),
   * creating a genesis row for a tenant that has none, and returns the committed heads.
   */
  async lockHeads(
    q: Queryable,
    tenantIds: string[],
    genesis: string,
  ): Promise<Map<string, { seq: number; hash: string }>> {
    const sorted = [...tenantIds].sort();
    await q.query(
      `INSERT INTO ledger.heads (tenant_id, tenant_seq, hash) SELECT t, 0, $2 FROM unnest($1::text[]) AS t
       ON CONFLICT (tenant_id) DO NOTHING`,
      [sorted, genesis],
    );
    const { rows } = await q.query<{ tenant_id: string; tenant_seq: string; hash: string }>(
      `SELECT tenant_id, tenant_seq, hash FROM ledger.heads WHERE tenant_id = ANY($1::text[]) ORDER BY tenant_id FOR UPDATE`,
      [sorted],
    );
    return new Map(rows.map((r) => [r.tenant_id, { seq: num(r.tenant_seq), hash: r.hash }]));
  },

  /**
   * One statement ends a commit: each checkpoint's tenant head moves to it, the checkpoints are
   * stored, and a `ledger` notification names each `<tenant>:<tenant_seq>` for whoever follows.
   */
  async finishCommit(q: Queryable, cps: CheckpointRow[]): Promise<void> {
    if (cps.length === 0) return;
    const col = <K extends keyof CheckpointRow>(k: K) => cps.map((r) => r[k]);
    await q.query(
      `WITH c AS (
         SELECT * FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::text[], $6::text[])
           AS c(tenant_id, tenant_seq, head_hash, signature, key_id, ts)
       ), moved AS (
         UPDATE ledger.heads h SET tenant_seq = c.tenant_seq, hash = c.head_hash FROM c
         WHERE h.tenant_id = c.tenant_id RETURNING h.tenant_id, h.tenant_seq
       ), stored AS (
         INSERT INTO ledger.checkpoints (tenant_id, tenant_seq, head_hash, signature, key_id, ts) SELECT * FROM c
       )
       SELECT pg_notify('ledger', tenant_id || ':' || tenant_seq) FROM moved`,
      [col("tenant_id"), col("tenant_seq"), col("head_hash"), col("signature"), col("key_id"), col("ts")],
    );
  },

  /** [tenant_seq, payload, prev_hash, hash] of a tenant after `after`, at most `limit`, in order. */
  async scanTenant(q: Queryable, tenantId: string, after: number, limit: number): Promise<ScanRow[]> {
    const { rows } = await q.query<unknown[]>({
      text: `SELECT ${SCAN_COLUMNS} FROM ledger.events WHERE tenant_id = $1 AND tenant_seq > $2 ORDER BY tenant_seq LIMIT $3`,
      values: [tenantId, after, limit],
      rowMode: "array",
    });
    return toScanRows(rows);
  },

  /** Every tenant with its committed head, by tenant id. */
  async heads(q: Queryable): Promise<Array<{ tenant_id: string; tenant_seq: number; hash: string }>> {
    const { rows } = await q.query<{ tenant_id: string; tenant_seq: string; hash: string }>(
      `SELECT tenant_id, tenant_seq, hash FROM ledger.heads WHERE tenant_seq > 0 ORDER BY tenant_id`,
    );
    return rows.map((r) => ({ tenant_id: r.tenant_id, tenant_seq: num(r.tenant_seq), hash: r.hash }));
  },

  async lastKeyId(q: Queryable): Promise<string | undefined> {
    const { rows } = await q.query<{ key_id: string }>(
      `SELECT key_id FROM ledger.checkpoints ORDER BY id DESC LIMIT 1`,
    );
    return rows[0]?.key_id;
  },

  async latestCheckpoint(q: Queryable, tenantId: string): Promise<CheckpointRow | undefined> {
    const { rows } = await q.query<CheckpointRow>(
      `SELECT tenant_id, tenant_seq::float8 AS tenant_seq, head_hash, signature, key_id, ts FROM ledger.checkpoints
       WHERE tenant_id = $1 ORDER BY tenant_seq DESC, id DESC LIMIT 1`,
      [tenantId],
    );
    return rows[0];
  },

  async checkpoints(q: Queryable, tenantId: string): Promise<CheckpointRow[]> {
    const { rows } = await q.query<CheckpointRow>(
      `SELECT tenant_id, tenant_seq::float8 AS tenant_seq, head_hash, signature, key_id, ts FROM ledger.checkpoints
       WHERE tenant_id = $1 ORDER BY tenant_seq, id`,
      [tenantId],
    );
    return rows;
  },

  /** The stored tree nodes of the events at `seqs` (tenant_seq → nodes). */
  async merkle(q: Queryable, tenantId: string, seqs: number[]): Promise<Map<number, Buffer>> {
    if (seqs.length === 0) return new Map();
    const { rows } = await q.query<unknown[]>({
      text: `SELECT tenant_seq::float8, merkle FROM ledger.events WHERE tenant_id = $1 AND tenant_seq = ANY($2::int8[])`,
      values: [tenantId, seqs],
      rowMode: "array",
    });
    return new Map(rows.map((r) => [r[0] as number, r[1] as Buffer]));
  },

  /** Stored payloads of tenant_seq from..to inclusive, in order. */
  async payloads(q: Queryable, tenantId: string, from: number, to: number): Promise<string[]> {
    const { rows } = await q.query<unknown[]>({
      text: `SELECT payload FROM ledger.events WHERE tenant_id = $1 AND tenant_seq >= $2 AND tenant_seq <= $3 ORDER BY tenant_seq`,
      values: [tenantId, from, to],
      rowMode: "array",
    });
    return rows.map((r) => r[0] as string);
  },

  async query(
    q: Queryable,
    f: {
      tenantId: string;
      conversationId?: string | undefined;
      jobId?: string | undefined;
      eventType?: string | undefined;
      afterTenantSeq: number;
      limit: number;
    },
  ): Promise<ScanRow[]> {
    const args: unknown[] = [f.tenantId, f.afterTenantSeq];
    const where = ["tenant_id = $1", "tenant_seq > $2"];
    const add = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      args.push(value);
      where.push(`${column} = $${args.length}`);
    };
    add("conversation_id", f.conversationId);
    add("job_id", f.jobId);
    add("event_type", f.eventType);
    args.push(f.limit);
    const { rows } = await q.query<unknown[]>({
      text: `SELECT ${SCAN_COLUMNS} FROM ledger.events WHERE ${where.join(" AND ")} ORDER BY tenant_seq LIMIT $${args.length}`,
      values: args,
      rowMode: "array",
    });
    return toScanRows(rows);
  },
};
