import { blob, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The UBL. One row per event; `payload` is the canonical JSON of the whole envelope (with its
 * tenant `seq`, without `integrity`), i.e. exactly the bytes that were hashed, so a read returns
 * what the chain covers. The other columns are copies for indexing. Triggers in the migrations
 * refuse UPDATE and DELETE.
 */
export const ledgerEvents = sqliteTable(
  "ledger_events",
  {
    seq: integer("seq").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    tenantSeq: integer("tenant_seq").notNull(),
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
  },
  (t) => [
    uniqueIndex("ledger_events_tenant_seq_uq").on(t.tenantId, t.tenantSeq),
    uniqueIndex("ledger_events_tenant_event_id_uq").on(t.tenantId, t.eventId),
    index("ledger_events_tenant_conversation_idx").on(t.tenantId, t.conversationId, t.tenantSeq),
    index("ledger_events_tenant_job_idx").on(t.tenantId, t.jobId, t.tenantSeq),
    index("ledger_events_tenant_type_idx").on(t.tenantId, t.eventType, t.tenantSeq),
  ],
);

/**
 * The RFC 6962 tree's nodes, one row per event (`seq` is the event's row in ledger_events): its
 * leaf hash, then one node per level for every complete subtree whose last leaf it is (32
 * bytes each). Derived from the payload, so not covered by the chain; kept out of the event
 * row so that the rows a scan reads stay narrow. Append-only like the events (triggers).
 */
export const ledgerTree = sqliteTable("ledger_tree", {
  seq: integer("seq").primaryKey(),
  nodes: blob("nodes", { mode: "buffer" }).notNull(),
});

/** One signed checkpoint per tenant per commit: Ed25519 over {tenant_id, tenant_seq, head_hash}. */
export const ledgerCheckpoints = sqliteTable(
  "ledger_checkpoints",
  {
    id: integer("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    tenantSeq: integer("tenant_seq").notNull(),
    headHash: text("head_hash").notNull(),
    signature: text("signature").notNull(),
    keyId: text("key_id").notNull(),
    ts: text("ts").notNull(),
  },
  (t) => [index("ledger_checkpoints_tenant_seq_idx").on(t.tenantId, t.tenantSeq)],
);
