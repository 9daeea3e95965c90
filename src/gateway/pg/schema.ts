import { bigint, index, integer, pgSchema, primaryKey, text } from "drizzle-orm/pg-core";

/** The gateway's own schema on PostgreSQL: the module owns `gateway.*` and nothing else. */
export const gateway = pgSchema("gateway");

/**
 * Idempotent writes, as gateway_idempotency_keys on SQLite (src/gateway/schema.ts): a claim while
 * the request runs (`running`, `claimed_by`, `claim_expires` in epoch ms from the server's clock),
 * then the sealed response (`done`), marked in the transaction that commits the request's effects.
 */
export const idempotencyKeys = gateway.table(
  "idempotency_keys",
  {
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    keyHash: text("key_hash").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["running", "done"] })
      .notNull()
      .default("done"),
    claimedBy: text("claimed_by"),
    claimExpires: bigint("claim_expires", { mode: "number" }),
    status: integer("status"),
    sealedResponse: text("sealed_response"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.entityId, t.keyHash] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
