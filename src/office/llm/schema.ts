import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The LLM layer's tables, part of Office's schema (re-exported by ../schema.ts) and created by
 * its generated migrations (`DRIZZLE_MODULE=office npx drizzle-kit generate`).
 */

/** Request/response packets (protocol doc "Storing JSON conversation"), stored after redaction. */
export const officeLlmPackets = sqliteTable(
  "office_llm_packets",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    turn: integer("turn").notNull(),
    createdAt: text("created_at").notNull(),
    senderRole: text("sender_role").notNull(),
    packetType: text("packet_type").notNull(),
    inReplyToRequestId: text("in_reply_to_request_id"),
    modelId: text("model_id"),
    jobId: text("job_id"),
    outcome: text("outcome"),
    redaction: text("redaction").notNull(),
    packetJson: text("packet_json").notNull(),
  },
  (t) => [
    index("office_llm_packets_conv_turn_idx").on(t.tenantId, t.conversationId, t.turn),
    index("office_llm_packets_job_idx").on(t.tenantId, t.jobId),
  ],
);

/** ThreadContext per conversation (contract §2.2), plus the turn counter packets are keyed by. */
export const officeThreadContext = sqliteTable(
  "office_thread_context",
  {
    tenantId: text("tenant_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    lastJobId: text("last_job_id"),
    recentJobIds: text("recent_job_ids").notNull(),
    pinnedJobId: text("pinned_job_id"),
    focusJobId: text("focus_job_id"),
    turn: integer("turn").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.conversationId] })],
);

/**
 * Assist suggestions a person was shown, so Apply acts on exactly what they saw, across a
 * restart, until `expires_at`. `status` moves offered → applied (in the gateway's commit of the
 * click) → done (once Office carried it out), so one click is carried out once.
 */
export const officeAssistSuggestions = sqliteTable(
  "office_assist_suggestions",
  {
    tenantId: text("tenant_id").notNull(),
    jobId: text("job_id").notNull(),
    suggestionId: text("suggestion_id").notNull(),
    viewJson: text("view_json").notNull(),
    status: text("status").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.jobId, t.suggestionId] }),
    index("office_assist_suggestions_expiry_idx").on(t.expiresAt),
  ],
);
