import { fileURLToPath } from "node:url";
import type pg from "pg";
import { migrateModule } from "../../shared/pg-migrate.js";
import { createAnswerMarkerOn } from "../inbox.js";

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

/** Taken while migrating, so processes booting together apply Office's migrations one at a time. */
const MIGRATION_LOCK = 0x4c4f474f; // "LOGO"

/**
 * Applies Office's PostgreSQL migrations (schema `office`, the inbox, the `logline_office_writer`
 * role) as the database owner, under an advisory lock. Idempotent.
 */
export function migratePgOffice(pool: pg.Pool): Promise<void> {
  return migrateModule(pool, { migrationsFolder: MIGRATIONS, schema: "office", lock: MIGRATION_LOCK });
}

/** A piece of accepted work as the inbox keeps it; `request` is already sealed with the vault key. */
export interface InboxRow {
  tenantId: string;
  eventId: string;
  kind: string;
  conversationId: string;
  request: string;
  acceptedAt: string;
}

/** Keeps accepted work through `tx`, the accepting append's client: the row commits with the event. */
export async function acceptPgInboxRow(tx: pg.ClientBase, row: InboxRow): Promise<void> {
  await tx.query(
    `INSERT INTO office.inbox (tenant_id, event_id, kind, conversation_id, request, accepted_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tenant_id, event_id) DO NOTHING`,
    [row.tenantId, row.eventId, row.kind, row.conversationId, row.request, row.acceptedAt],
  );
}

/** The answer marker over `office.inbox`: the first answer deletes the row through the append's client. */
export function createPgAnswerMarker() {
  return createAnswerMarkerOn(
    async (tx: pg.ClientBase, tenantId: string, eventId: string, gone: () => never): Promise<void> => {
      const res = await tx.query("DELETE FROM office.inbox WHERE tenant_id = $1 AND event_id = $2", [
        tenantId,
        eventId,
      ]);
      if (res.rowCount === 0) gone();
    },
  );
}
