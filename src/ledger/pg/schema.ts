import { sql } from "drizzle-orm";
import { bigint, customType, index, pgSchema, text, uniqueIndex } from "drizzle-orm/pg-core";

/** The ledger's own schema on PostgreSQL: the module owns `ledger.*` and nothing else. */
export const ledger = pgSchema("ledger");

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });
/** The writing transaction's id (64-bit, no wraparound): whole-log readers stop below the oldest still open. */
const xid8 = customType<{ data: string }>({ dataType: () => "xid8" });

/**
 * The UBL, as ledger_events on SQLite (src/ledger/schema.ts): one row per event, `payload` the
 * canonical JSON that was hashed. `seq` is a physical position only (it has holes and becomes
 * visible out of order across tenants); per tenant, `tenant_seq` is gap-free and commits in
 * order because it is assigned under the lock on the tenant's `heads` row. `merkle` holds the
 * RFC 6962 nodes this event completes (see merkle/tree-store.ts). Triggers refuse UPDATE,
 * DELETE and TRUNCATE.
 */
export const events = ledger.table(
  "events",
  {
    seq: bigint("seq", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: text("tenant_id").notNull(),
    tenantSeq: bigint("tenant_seq", { mode: "number" }).notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    ts: text("ts").notNull(),
    conversationId: text("conversation_id").notNull(),
    jobId: text("job_id"),
    traceId: text("trace_id").notNull(),
    actorEntityId: text("actor_entity_id").notNull(),
    actorType: text("actor_type").notNull(),
    payload: text("payload").notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
    merkle: bytea("merkle").notNull(),
    xid: xid8("xid").notNull().default(sql`pg_current_xact_id()`),
  },
  (t) => [
    uniqueIndex("events_tenant_seq_uq").on(t.tenantId, t.tenantSeq),
    uniqueIndex("events_tenant_event_id_uq").on(t.tenantId, t.eventId),
    index("events_tenant_conversation_idx").on(t.tenantId, t.conversationId, t.tenantSeq),
    index("events_tenant_job_idx").on(t.tenantId, t.jobId, t.tenantSeq),
    index("events_tenant_type_idx").on(t.tenantId, t.eventType, t.tenantSeq),
  ],
);

/**
 * One row per tenant: its committed head. Every append locks the row (`FOR UPDATE`) before it
 * reads the head, so appends to one tenant from any number of processes are serial.
 */
export const heads = ledger.table("heads", {
  tenantId: text("tenant_id").primaryKey(),
  tenantSeq: bigint("tenant_seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
});

/** One signed checkpoint per tenant per commit, as on SQLite. */
export const checkpoints = ledger.table(
  "checkpoints",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: text("tenant_id").notNull(),
    tenantSeq: bigint("tenant_seq", { mode: "number" }).notNull(),
    headHash: text("head_hash").notNull(),
    signature: text("signature").notNull(),
    keyId: text("key_id").notNull(),
    ts: text("ts").notNull(),
  },
  (t) => [index("checkpoints_tenant_seq_idx").on(t.tenantId, t.tenantSeq)],
);
