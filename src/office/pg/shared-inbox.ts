import type pg from "pg";
import type { SharedInbox } from "../office-deps.js";
import type { InboxRecord } from "../inbox.js";
import { acceptPgInboxRow, createPgAnswerMarker } from "./inbox-pg.js";

const COLUMNS = `id::float8 AS "id", tenant_id AS "tenantId", event_id AS "eventId", kind,
  conversation_id AS "conversationId", request, accepted_at AS "acceptedAt", attempts`;

/**
 * Office's inbox in `office.inbox`, shared by every process on the database. A row is inserted on
 * the accepting append's transaction (through `alongside`, since `accept` is not handed it) and
 * deleted by the first answer's commit (the fence). Any process may find every row waiting:
 * identity ids of concurrent commits become visible out of order, so no id is a watermark.
 */
export function createPgSharedInbox(deps: {
  pool: pg.Pool;
  ledger: { alongside(write: (tx: pg.PoolClient) => Promise<unknown>): void };
  onError?: (err: unknown, where: string) => void;
}): SharedInbox {
  const { pool } = deps;
  let counted = 0;
  const recount = () =>
    void pool
      .query<{ n: number }>("SELECT count(*)::int AS n FROM office.inbox")
      .then((r) => void (counted = r.rows[0]?.n ?? 0))
      .catch((e) => deps.onError?.(e, "inbox.count"));
  return {
    marker: createPgAnswerMarker(),
    store: {
      insert(row) {
        deps.ledger.alongside((tx) => acceptPgInboxRow(tx, row));
      },
      async waiting() {
        const { rows } = await pool.query<InboxRecord>(`SELECT ${COLUMNS} FROM office.inbox ORDER BY id`);
        counted = rows.length;
        return rows;
      },
      async get(id) {
        const { rows } = await pool.query<InboxRecord>(`SELECT ${COLUMNS} FROM office.inbox WHERE id = $1`, [id]);
        return rows[0];
      },
      async remove(tenantId, eventId) {
        await pool.query("DELETE FROM office.inbox WHERE tenant_id = $1 AND event_id = $2", [tenantId, eventId]);
      },
      async failed(tenantId, eventId, attempts, lastError) {
        await pool.query(
          "UPDATE office.inbox SET attempts = $3, last_error = $4 WHERE tenant_id = $1 AND event_id = $2",
          [tenantId, eventId, attempts, lastError],
        );
      },
      count() {
        // The gauge reads the last count and asks for a fresh one for next time.
        recount();
        return counted;
      },
    },
  };
}
