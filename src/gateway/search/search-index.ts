import { formatCursor } from "../../../contracts/primitives.js";
import type { TStoredEvent } from "../../../contracts/events.js";
import type { LedgerDoorApi } from "../../ledger/index.js";
import type { Db } from "../../shared/db.js";
import type { Logger } from "../logger.js";
import { cleanForIndex, MARK_CLOSE, MARK_OPEN } from "./snippet.js";

/** One message found, before the read model names its conversation and author. */
interface IndexHit {
  conversation_id: string;
  message_id: string;
  event_id: string;
  seq: number;
  ts: string;
  author_entity_id: string;
  author_type: string;
  edited: boolean;
  marked: string;
}

export interface SearchIndex {
  /**
   * Takes in a committed event (message.sent / edited / deleted; others are ignored; the index
   * subscribes to the ledger itself). Written on the next tick, or before the next search.
   */
  enqueue(ev: TStoredEvent): void;
  /** Writes what is queued, in one transaction with each tenant's position. */
  flush(): void;
  /**
   * Messages of `conversationIds` matching the FTS5 `match`, newest first, with seq below
   * `beforeSeq`; at most `limit`.
   */
  query(q: {
    tenantId: string;
    match: string;
    conversationIds: readonly string[];
    beforeSeq: number;
    limit: number;
  }): IndexHit[];
  close(): void;
}

const PAGE = 1000;

/**
 * The message search index in the gateway's tables (FTS5, see migrations/0003_search.sql). It
 * follows the ledger like a projection, but is stored: each tenant's row in
 * gateway_search_state says up to which tenant_seq it has read, and boot reads the rest of the
 * ledger from there (everything when the tables are new, or when they claim more than the ledger
 * holds, as after a restore into a fresh database).
 */
export function createSearchIndex(deps: { db: Db; ledger: LedgerDoorApi; logger: Logger }): SearchIndex {
  const { db } = deps;
  const stmt = {
    position: db.prepare<[string], number>("SELECT indexed_seq FROM gateway_search_state WHERE tenant_id = ?").pluck(),
    setPosition: db.prepare(
      "INSERT INTO gateway_search_state (tenant_id, indexed_seq) VALUES (?, ?) ON CONFLICT(tenant_id) DO UPDATE SET indexed_seq = excluded.indexed_seq",
    ),
    forget: db.prepare("DELETE FROM gateway_search_messages WHERE tenant_id = ?"),
    insert: db.prepare(
      `INSERT INTO gateway_search_messages (tenant_id, conversation_id, message_id, event_id, seq, ts, author_entity_id, author_type, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(tenant_id, message_id) DO NOTHING`,
    ),
    edit: db.prepare(
      "UPDATE gateway_search_messages SET body = ?, edited = 1 WHERE tenant_id = ? AND message_id = ? AND conversation_id = ?",
    ),
    remove: db.prepare(
      "DELETE FROM gateway_search_messages WHERE tenant_id = ? AND message_id = ? AND conversation_id = ?",
    ),
    search: db.prepare(
      `SELECT m.conversation_id, m.message_id, m.event_id, m.seq, m.ts, m.author_entity_id, m.author_type, m.edited,
              snippet(gateway_search_fts, 0, ?, ?, '…', 24) AS marked
       FROM gateway_search_fts JOIN gateway_search_messages m ON m.id = gateway_search_fts.rowid
       WHERE gateway_search_fts MATCH ? AND m.tenant_id = ? AND m.seq < ?
         AND m.conversation_id IN (SELECT value FROM json_each(?))
       ORDER BY m.seq DESC LIMIT ?`,
    ),
  };

  const positions = new Map<string, number>();
  const positionOf = (tenantId: string) => {
    let p = positions.get(tenantId);
    if (p === undefined) positions.set(tenantId, (p = stmt.position.get(tenantId) ?? 0));
    return p;
  };

  /** One event into the tables; the caller holds the transaction. */
  function write(ev: TStoredEvent): void {
    if (ev.seq <= positionOf(ev.tenant_id)) return;
    if (ev.event_type === "message.sent") {
      const m = ev.payload;
      if (m.kind === "text" && typeof m.body_text === "string" && m.body_text.trim() !== "") {
        stmt.insert.run(
          ev.tenant_id,
          ev.conversation_id,
          m.message_id,
          ev.event_id,
          ev.seq,
          ev.ts,
          ev.actor.entity_id,
          ev.actor.actor_type,
          cleanForIndex(m.body_text),
        );
      }
    } else if (ev.event_type === "message.edited") {
      stmt.edit.run(cleanForIndex(ev.payload.body_text), ev.tenant_id, ev.payload.message_id, ev.conversation_id);
    } else if (ev.event_type === "message.deleted") {
      stmt.remove.run(ev.tenant_id, ev.payload.message_id, ev.conversation_id);
    }
    positions.set(ev.tenant_id, ev.seq);
  }

  const writeBatch = db.transaction((events: readonly TStoredEvent[]) => {
    const touched = new Set<string>();
    for (const ev of events) {
      write(ev);
      touched.add(ev.tenant_id);
    }
    for (const t of touched) stmt.setPosition.run(t, positionOf(t));
  });

  async function catchUp(tenantId: string): Promise<void> {
    const head = deps.ledger.head(tenantId).tenant_seq;
    if (positionOf(tenantId) > head) {
      // The tables are from another history (a restore, an import): start again from the ledger.
      db.transaction(() => {
        stmt.forget.run(tenantId);
        stmt.setPosition.run(tenantId, 0);
      })();
      positions.set(tenantId, 0);
    }
    const from = positionOf(tenantId);
    if (from >= head) return;
    deps.logger.info({ tenant_id: tenantId, from, head }, "search index catching up with the ledger");
    let after = from;
    for (;;) {
      const page = await deps.ledger.query({ tenant_id: tenantId, after_cursor: formatCursor(after), limit: PAGE });
      if (closed || page.events.length === 0) break;
      writeBatch(page.events);
      after = page.events[page.events.length - 1]!.seq;
      if (!page.next_cursor) break;
    }
  }

  let queue: TStoredEvent[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  // Committed events are taken in from the start, and held while the index catches up with the
  // stored log: written then, what the catch-up already read is skipped by position.
  let catching = true;
  let closed = false;
  const unsubscribe = deps.ledger.subscribe((ev) => index.enqueue(ev));
  // Pages are read with ledger.query (arrays), not replay (an open cursor on the shared
  // connection, which forbids writing until it ends).
  void (async () => {
    for (const t of deps.ledger.tenants()) if (!closed) await catchUp(t);
  })().then(
    () => {
      catching = false;
      if (!closed) flush();
    },
    (err: unknown) => {
      // Positions stay where the failure left them: the next boot reads the rest again.
      catching = false;
      deps.logger.error({ err }, "search index catch-up failed");
    },
  );

  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (catching || queue.length === 0) return;
    const batch = queue;
    queue = [];
    // The index is derived from the ledger and knows how far it has read: a commit lost to a
    // power cut is read again on boot. So its commits need no fsync of their own (WAL,
    // synchronous=NORMAL); the ledger's next FULL commit syncs the log they are in anyway.
    const sync = db.pragma("synchronous", { simple: true }) as number;
    if (sync > 1) db.pragma("synchronous = NORMAL");
    try {
      writeBatch(batch);
    } catch (err) {
      // The positions were not moved: the next boot reads these events again.
      for (const ev of batch) positions.delete(ev.tenant_id);
      deps.logger.error({ err }, "search index write failed");
    } finally {
      if (sync > 1) db.pragma(`synchronous = ${sync}`);
    }
  };

  const index: SearchIndex = {
    enqueue(ev) {
      if (
        ev.event_type !== "message.sent" &&
        ev.event_type !== "message.edited" &&
        ev.event_type !== "message.deleted"
      ) {
        // Only the position moves; it is written with the next message, so no write per event.
        if (!catching && queue.length === 0 && ev.seq > positionOf(ev.tenant_id)) positions.set(ev.tenant_id, ev.seq);
        else queue.push(ev);
        return;
      }
      queue.push(ev);
      scheduled ??= setImmediate(flush);
    },
    flush,
    query(q) {
      flush();
      const rows = stmt.search.all(
        MARK_OPEN,
        MARK_CLOSE,
        q.match,
        q.tenantId,
        q.beforeSeq,
        JSON.stringify(q.conversationIds),
        q.limit,
      ) as Array<Omit<IndexHit, "edited"> & { edited: number }>;
      return rows.map((r) => ({ ...r, edited: r.edited === 1 }));
    },
    close() {
      unsubscribe();
      flush();
      closed = true;
    },
  };
  return index;
}
