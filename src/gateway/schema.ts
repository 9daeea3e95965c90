import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The gateway's own tables. Everything the UI reads lives in memory, rebuilt from the ledger;
 * only what the ledger must never hold is stored here: hashed credentials and idempotent
 * responses.
 */

/**
 * Session/API tokens. Only a SHA-256 of the token is kept, so a copy of the file signs nobody in.
 * Each token is one session: its public id (what a person ends it by), the device it was made
 * on (a label from the User-Agent), how it was signed in, and when it was last used.
 */
export const gatewayTokens = sqliteTable(
  "gateway_tokens",
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
  (t) => [index("gateway_tokens_entity_idx").on(t.tenantId, t.entityId)],
);

/**
 * One-time sign-in links (another device, or by email). Hashed like tokens; short-lived; used
 * once, and the session it made is recorded, so a second use can be refused by name.
 */
export const gatewaySignInLinks = sqliteTable(
  "gateway_sign_in_links",
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
  (t) => [index("gateway_sign_in_links_entity_idx").on(t.tenantId, t.entityId)],
);

/** Invite links. Hashed like tokens; one use each. */
export const gatewayInvites = sqliteTable("gateway_invites", {
  inviteHash: text("invite_hash").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  createdBy: text("created_by").notNull(),
  displayName: text("display_name"),
  roles: text("roles").notNull(),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  acceptedBy: text("accepted_by"),
});

/**
 * Idempotent writes, keyed by (tenant, entity, SHA-256 of the key): a claim while the request
 * runs (`state` 'running', `claimed_by`, `claim_expires`), then its stored response (`done`),
 * marked in the transaction that commits the request's effects. The response is sealed with a
 * key derived from the raw Idempotency-Key, which is never stored: a response can carry a fresh
 * token, and a database copy must not hand it out.
 */
export const gatewayIdempotencyKeys = sqliteTable(
  "gateway_idempotency_keys",
  {
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    keyHash: text("key_hash").notNull(),
    requestHash: text("request_hash").notNull(),
    state: text("state", { enum: ["running", "done"] })
      .notNull()
      .default("done"),
    claimedBy: text("claimed_by"),
    claimExpires: integer("claim_expires"),
    status: integer("status"),
    sealedResponse: text("sealed_response"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.entityId, t.keyHash] }),
    index("gateway_idem_created_idx").on(t.createdAt),
  ],
);

/** Files people attached in chat; the bytes live under DATA_DIR/attachments. */
export const gatewayAttachments = sqliteTable("gateway_attachments", {
  artifactId: text("artifact_id").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  conversationId: text("conversation_id").notNull(),
  filename: text("filename").notNull(),
  mimeType: text("mime_type").notNull(),
  sizeBytes: integer("size_bytes").notNull(),
  path: text("path").notNull(),
  createdAt: text("created_at").notNull(),
});

/**
 * Web Push subscriptions, one per browser (its push service endpoint), owned by the person
 * signed in there. An endpoint subscribed again under someone else moves to them, so a shared
 * device never gets the previous person's notifications. Removed on unsubscribe, or when the
 * push service answers 404/410 (the subscription is gone).
 */
export const gatewayPushSubscriptions = sqliteTable(
  "gateway_push_subscriptions",
  {
    subscriptionId: text("subscription_id").primaryKey(),
    endpoint: text("endpoint").notNull().unique(),
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    expiresAt: integer("expires_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("gateway_push_entity_idx").on(t.tenantId, t.entityId)],
);

/**
 * Conversations a person muted: a private preference about their own notifications, not a fact
 * about the conversation, so it is kept here rather than in the ledger every member reads.
 */
export const gatewayConversationMutes = sqliteTable(
  "gateway_conversation_mutes",
  {
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    mutedAt: text("muted_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.entityId, t.conversationId] })],
);

/**
 * The e-mail digest's queue: one row per thing that started waiting on a person who asked for
 * the digest (a direct message, a mention, a job to approve or waiting on them), the words of
 * its notification, and when it was mailed. A row is mailed at most once; one that stopped
 * waiting (read, acted on, opted out) is deleted unsent.
 */
export const gatewayDigestItems = sqliteTable(
  "gateway_digest_items",
  {
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    eventId: text("event_id").notNull(),
    kind: text("kind").notNull(),
    conversationId: text("conversation_id").notNull(),
    jobId: text("job_id"),
    /** tenant_seq of the event: a message read up to here no longer waits. */
    seq: integer("seq").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    url: text("url").notNull(),
    notedMs: integer("noted_ms").notNull(),
    sentAt: text("sent_at"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.entityId, t.eventId] }),
    index("gateway_digest_due_idx").on(t.sentAt, t.notedMs),
  ],
);

/**
 * Passkeys (WebAuthn credentials): a durable way back in, kept beside the sessions and out of the
 * ledger for the same reason. Only the public key is stored; the counter catches a cloned
 * authenticator. `passkey_id` is the public handle a person removes it by.
 */
export const gatewayPasskeys = sqliteTable(
  "gateway_passkeys",
  {
    passkeyId: text("passkey_id").primaryKey(),
    credentialId: text("credential_id").notNull(),
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull(),
    transports: text("transports"),
    deviceLabel: text("device_label"),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [
    uniqueIndex("gateway_passkeys_credential_unique").on(t.credentialId),
    index("gateway_passkeys_entity_idx").on(t.tenantId, t.entityId),
  ],
);

/**
 * WebAuthn challenges: single use (used_at is set in the same statement that checks it) and
 * short-lived. A registration challenge is bound to the person who asked for it.
 */
export const gatewayPasskeyChallenges = sqliteTable("gateway_passkey_challenges", {
  challenge: text("challenge").primaryKey(),
  purpose: text("purpose").notNull(),
  tenantId: text("tenant_id"),
  entityId: text("entity_id"),
  expiresAt: text("expires_at").notNull(),
  usedAt: text("used_at"),
});

/**
 * Messages a person scheduled to send later, and reminders they asked for: theirs alone until
 * they fall due, so kept here and not in the ledger (nobody else may read them). When one falls
 * due the gateway writes its `message.sent` (its event id made from the schedule's id) and marks
 * the row sent in the same transaction: a schedule is sent once, also when it fell due while the
 * server was down.
 */
export const gatewayScheduledMessages = sqliteTable(
  "gateway_scheduled_messages",
  {
    scheduleId: text("schedule_id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    entityId: text("entity_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    /** `message`: sent as the person into the conversation; `reminder`: posted to them alone. */
    kind: text("kind").notNull(),
    bodyText: text("body_text").notNull(),
    /** For a reminder: the message it is about. */
    aboutMessageId: text("about_message_id"),
    sendAtMs: integer("send_at_ms").notNull(),
    /** The zone the time was given in (the person's, when they asked). */
    timeZone: text("time_zone").notNull(),
    /** pending | sent | cancelled | failed */
    status: text("status").notNull(),
    messageId: text("message_id").notNull(),
    createdAt: text("created_at").notNull(),
    doneAt: text("done_at"),
    failure: text("failure"),
  },
  (t) => [
    index("gateway_scheduled_due_idx").on(t.status, t.sendAtMs),
    index("gateway_scheduled_owner_idx").on(t.tenantId, t.entityId, t.status),
  ],
);
