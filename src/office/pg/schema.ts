import { bigint, integer, pgSchema, text, uniqueIndex } from "drizzle-orm/pg-core";

/** Office's own schema on PostgreSQL: the module owns `office.*` and nothing else. */
export const office = pgSchema("office");

/**
 * Office's durable inbox, as office_inbox on SQLite (src/office/schema.ts): one row per piece of
 * accepted work, inserted in the accepting append and deleted by the first answer's commit.
 */
export const inbox = office.table(
  "inbox",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: text("tenant_id").notNull(),
    eventId: text("event_id").notNull(),
    kind: text("kind").notNull(),
    conversationId: text("conversation_id").notNull(),
    request: text("request").notNull(),
    acceptedAt: text("accepted_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
  },
  (t) => [uniqueIndex("inbox_event_uq").on(t.tenantId, t.eventId)],
);
