import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Office's own tables. None of them is truth about a job (the ledger is); they hold what must
 * never enter the ledger (encrypted PII), the bytes of files Office produced, and the outbox of
 * messages a tool sent to people outside the workspace.
 */

/** Encrypted PII. `erased_at` set and ciphertext emptied = gone for good; events keep their hash. */
export const officeVault = sqliteTable(
  "office_vault",
  {
    vaultRef: text("vault_ref").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    kind: text("kind").notNull(),
    hash: text("hash").notNull(),
    iv: text("iv").notNull(),
    tag: text("tag").notNull(),
    ciphertext: text("ciphertext").notNull(),
    createdAt: text("created_at").notNull(),
    erasedAt: text("erased_at"),
  },
  (t) => [index("office_vault_tenant_hash_idx").on(t.tenantId, t.hash)],
);

/** Files Office produced (e.g. `.ics` invites); bytes live under DATA_DIR/artifacts. */
export const officeArtifacts = sqliteTable(
  "office_artifacts",
  {
    artifactId: text("artifact_id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    jobId: text("job_id"),
    filename: text("filename").notNull(),
    mimeType: text("mime_type").notNull(),
    path: text("path").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    createdAt: text("created_at").notNull(),
    /** JSON array of the vault refs whose values the file embeds, so erasing one rewrites it; null on rows from before. */
    vaultRefs: text("vault_refs"),
  },
  (t) => [index("office_artifacts_tenant_job_idx").on(t.tenantId, t.jobId)],
);

/**
 * Messages to people outside the workspace (invites). The unique idempotency key is what makes
 * a retried tool call send once even when the first attempt's answer was lost. The delivery
 * columns are the mail worker's whole memory (src/office/mail): `status` is held | queued |
 * sending | sent | failed, and a row found `sending` at boot is re-sent with its `message_id`.
 */
export const officeOutbox = sqliteTable(
  "office_outbox",
  {
    outboxId: text("outbox_id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    jobId: text("job_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    toVaultRef: text("to_vault_ref"),
    toRedacted: text("to_redacted").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    artifactId: text("artifact_id"),
    status: text("status").notNull(),
    createdAt: text("created_at").notNull(),
    /** JSON array of the vault refs this message was addressed to; null on rows from before (to_vault_ref only). */
    vaultRefs: text("vault_refs"),
    /** SMTP attempts made so far (each one counted before it starts). */
    attempts: integer("attempts").notNull().default(0),
    /** `attempts` when the row was last resent by hand: the backoff schedule counts from there. */
    retryBase: integer("retry_base").notNull().default(0),
    /** When a queued row is due; null on rows queued before delivery existed (held at boot). */
    nextAttemptAt: text("next_attempt_at"),
    /** The server's refusal or a short connection description; never a recipient's address. */
    lastError: text("last_error"),
    /** The server's answer to the accepted message (its 250 line). */
    lastResponse: text("last_response"),
    /** Fixed at the first attempt, so every re-send (after a crash too) carries the same Message-ID. */
    messageId: text("message_id"),
    sentAt: text("sent_at"),
    updatedAt: text("updated_at"),
  },
  (t) => [
    uniqueIndex("office_outbox_tenant_idem_uq").on(t.tenantId, t.idempotencyKey),
    index("office_outbox_status_due_idx").on(t.status, t.nextAttemptAt),
  ],
);

/** The LLM layer's tables (packets, ThreadContext, Assist suggestions) live in llm/schema.ts; Office's migrations create them. */
export { officeAssistSuggestions, officeLlmPackets, officeThreadContext } from "./llm/schema.js";

/**
 * Office's durable inbox: what the gateway accepted for Office (a person's message, a click, an
 * Assist apply) and Office has not answered yet. A row commits in the same transaction as the
 * accepted event and is deleted in the same transaction as the first event Office writes in
 * answer, so after any crash a piece of work is either answered or still here. `request` is the
 * call Office will make, sealed with the vault key (it holds the person's words before redaction).
 */
export const officeInbox = sqliteTable(
  "office_inbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    /** The accepted event this work answers (the message, or the click's bubble). */
    eventId: text("event_id").notNull(),
    kind: text("kind").notNull(),
    conversationId: text("conversation_id").notNull(),
    request: text("request").notNull(),
    acceptedAt: text("accepted_at").notNull(),
    /** Attempts that ended in an unexpected error (a refusal or an answer ends the row). */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
  },
  (t) => [uniqueIndex("office_inbox_event").on(t.tenantId, t.eventId)],
);

/**
 * Every mail the organizer's mailbox held that Office read (IMAP_URL), once each: an invitee's
 * answer recorded on its job, or a refusal and why (no invitation matched, a sender who is not
 * the attendee, a calendar that could not be read, a mail too large). `key` is the mailbox's
 * UIDVALIDITY and the message's UID; no address or body is kept.
 */
export const officeInboundMail = sqliteTable(
  "office_inbound_mail",
  {
    key: text("key").primaryKey(),
    /** SHA-256 of the Message-ID header (the ledger's form), when the mail had one. */
    messageIdSha256: text("message_id_sha256"),
    tenantId: text("tenant_id"),
    jobId: text("job_id"),
    /** recorded | refused */
    status: text("status").notNull(),
    /** The refusal's reason code (too_large, not_calendar, malformed, not_a_reply, no_match, not_invited, spoofed_sender, job_closed, duplicate). */
    reason: text("reason"),
    detail: text("detail"),
    eventId: text("event_id"),
    receivedAt: text("received_at").notNull(),
  },
  (t) => [index("office_inbound_mail_job").on(t.tenantId, t.jobId)],
);
