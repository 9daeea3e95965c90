import { bigint, boolean, doublePrecision, index, integer, pgSchema, primaryKey, text } from "drizzle-orm/pg-core";

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

/*
 * Sign-in state shared by every process, as on SQLite (src/gateway/schema.ts) and in the same
 * text forms (ISO times), so one set of statements serves both: tokens and sessions, one-time
 * sign-in links, invites and WebAuthn challenges.
 */

/** Session/API tokens: only a SHA-256 of each token. */
export const tokens = gateway.table(
  "tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
    sessionId: text("session_id").unique(),
    deviceLabel: text("device_label"),
    signedInVia: text("signed_in_via"),
    lastSeenAt: text("last_seen_at"),
  },
  (t) => [index("tokens_entity_idx").on(t.tenantId, t.entityId)],
);

/** One-time sign-in links (another device, or by email), hashed like tokens. */
export const signInLinks = gateway.table(
  "sign_in_links",
  {
    linkHash: text("link_hash").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    purpose: text("purpose").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    sessionId: text("session_id"),
  },
  (t) => [index("sign_in_links_entity_idx").on(t.tenantId, t.entityId)],
);

/** Invite links, hashed like tokens; one use each. */
export const invites = gateway.table("invites", {
  inviteHash: text("invite_hash").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  createdBy: text("created_by").notNull(),
  displayName: text("display_name"),
  roles: text("roles").notNull(),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  acceptedBy: text("accepted_by"),
});

/** WebAuthn challenges: single use, short-lived. */
export const passkeyChallenges = gateway.table("passkey_challenges", {
  challenge: text("challenge").primaryKey(),
  purpose: text("purpose").notNull(),
  tenantId: text("tenant_id"),
  entityId: text("entity_id"),
  expiresAt: text("expires_at").notNull(),
  usedAt: text("used_at"),
});

/**
 * Rate-limit buckets shared by every process: what is left of a key's burst (`tokens`) as of
 * `at_ms` (the server's clock), and whether its last take was allowed. UNLOGGED: a crash empties
 * it, which only refills every bucket.
 */
export const rateBuckets = gateway.table("rate_buckets", {
  key: text("key").primaryKey(),
  tokens: doublePrecision("tokens").notNull(),
  atMs: bigint("at_ms", { mode: "number" }).notNull(),
  ok: boolean("ok").notNull(),
});

/** Web Push subscriptions, one per browser endpoint, as on SQLite; `expires_at` in epoch ms. */
export const pushSubscriptions = gateway.table(
  "push_subscriptions",
  {
    subscriptionId: text("subscription_id").primaryKey(),
    endpoint: text("endpoint").notNull().unique(),
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("push_subscriptions_entity_idx").on(t.tenantId, t.entityId)],
);

/** Conversations a person muted, as on SQLite. */
export const conversationMutes = gateway.table(
  "conversation_mutes",
  {
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    mutedAt: text("muted_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.entityId, t.conversationId] })],
);
