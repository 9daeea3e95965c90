import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

/**
 * The message search index's own thread: it owns the index's SQLite file (FTS5), so tokenizing
 * message text never costs the thread that appends to the ledger and answers requests. It takes
 * messages in order from one port (their shapes are in protocol.ts): writes, then queries, so a
 * query sees every write sent before it. See search-index.ts for the side that follows the
 * ledger. Plain JavaScript, so that starting the thread loads no TypeScript loader (≈ 0.3 s of
 * CPU per start); `workerData` brings the file's path, snippet.ts's marks and the control
 * characters it replaces.
 */

/** Bumped when the tables below change: an index of another version is dropped and rebuilt. */
const VERSION = 1;

const SCHEMA = `
CREATE TABLE search_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  ts TEXT NOT NULL,
  author_entity_id TEXT NOT NULL,
  author_type TEXT NOT NULL,
  body TEXT NOT NULL,
  edited INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX search_msg_idx ON search_messages (tenant_id, message_id);
CREATE INDEX search_seq_idx ON search_messages (tenant_id, seq);
CREATE TABLE search_state (
  tenant_id TEXT PRIMARY KEY,
  indexed_seq INTEGER NOT NULL,
  indexed_event_id TEXT NOT NULL
);
-- A deleted or edited message's old words are removed from the index itself (secure-delete), not only masked.
CREATE VIRTUAL TABLE search_fts USING fts5(body, content='search_messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER search_ai AFTER INSERT ON search_messages BEGIN
  INSERT INTO search_fts(rowid, body) VALUES (new.id, new.body);
END;
CREATE TRIGGER search_ad AFTER DELETE ON search_messages BEGIN
  INSERT INTO search_fts(search_fts, rowid, body) VALUES ('delete', old.id, old.body);
END;
CREATE TRIGGER search_au AFTER UPDATE OF body ON search_messages BEGIN
  INSERT INTO search_fts(search_fts, rowid, body) VALUES ('delete', old.id, old.body);
  INSERT INTO search_fts(rowid, body) VALUES (new.id, new.body);
END;
INSERT INTO search_fts(search_fts, rank) VALUES ('secure-delete', 1);
PRAGMA user_version = ${VERSION};
`;

function open(path) {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  // Derived from the ledger, and it knows how far it has read: a commit lost to a power cut is
  // read again on boot, so its commits need no fsync of their own.
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  if (db.pragma("user_version", { simple: true }) !== VERSION) {
    db.transaction(() => {
      for (const t of ["search_fts", "search_messages", "search_state"]) db.exec(`DROP TABLE IF EXISTS ${t}`);
      db.exec(SCHEMA);
    })();
  }
  return db;
}

function serve({ path, markOpen, markClose, control }) {
  const port = parentPort;
  if (!port) throw new Error("search-worker.mjs runs as a worker thread");
  const controlChars = new RegExp(control, "g");
  const cleanForIndex = (text) => text.replace(controlChars, " ");
  const db = open(path);
  const stmt = {
    positions: db.prepare("SELECT tenant_id, indexed_seq, indexed_event_id FROM search_state"),
    setPosition: db.prepare(
      `INSERT INTO search_state (tenant_id, indexed_seq, indexed_event_id) VALUES (?, ?, ?)
       ON CONFLICT(tenant_id) DO UPDATE SET indexed_seq = excluded.indexed_seq, indexed_event_id = excluded.indexed_event_id`,
    ),
    forgetMessages: db.prepare("DELETE FROM search_messages WHERE tenant_id = ?"),
    forgetState: db.prepare("DELETE FROM search_state WHERE tenant_id = ?"),
    insert: db.prepare(
      `INSERT INTO search_messages (tenant_id, conversation_id, message_id, event_id, seq, ts, author_entity_id, author_type, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(tenant_id, message_id) DO NOTHING`,
    ),
    edit: db.prepare(
      "UPDATE search_messages SET body = ?, edited = 1 WHERE tenant_id = ? AND message_id = ? AND conversation_id = ?",
    ),
    remove: db.prepare("DELETE FROM search_messages WHERE tenant_id = ? AND message_id = ? AND conversation_id = ?"),
    search: db.prepare(
      `SELECT m.conversation_id, m.message_id, m.event_id, m.seq, m.ts, m.author_entity_id, m.author_type, m.edited,
              snippet(search_fts, 0, ?, ?, '…', 24) AS marked
       FROM search_fts JOIN search_messages m ON m.id = search_fts.rowid
       WHERE search_fts MATCH ? AND m.tenant_id = ? AND m.seq < ?
         AND m.conversation_id IN (SELECT value FROM json_each(?))
       ORDER BY m.seq DESC LIMIT ?`,
    ),
  };

  /** tenant → the last tenant_seq taken in. */
  let positions = new Map();
  const loadPositions = () => {
    positions = new Map(
      stmt.positions
        .raw()
        .all()
        .map(([t, seq]) => [t, seq]),
    );
  };
  loadPositions();

  const apply = (op) => {
    if (op.seq <= (positions.get(op.t) ?? 0)) return;
    if (op.k === "sent") {
      stmt.insert.run(op.t, op.conv, op.msg, op.ev, op.seq, op.ts, op.author, op.authorType, cleanForIndex(op.body));
    } else if (op.k === "edited") {
      stmt.edit.run(cleanForIndex(op.body), op.t, op.msg, op.conv);
    } else {
      stmt.remove.run(op.t, op.msg, op.conv);
    }
  };
  const write = db.transaction((ops, seen) => {
    for (const op of ops) apply(op);
    for (const [t, seq, eventId] of seen) {
      if (seq <= (positions.get(t) ?? 0)) continue;
      stmt.setPosition.run(t, seq, eventId);
      positions.set(t, seq);
    }
  });
  const forget = db.transaction((tenantId) => {
    stmt.forgetMessages.run(tenantId);
    stmt.forgetState.run(tenantId);
    positions.delete(tenantId);
  });

  const reply = (m) => port.postMessage(m);
  port.on("message", (m) => {
    try {
      switch (m.op) {
        case "write":
          try {
            write(m.ops, m.seen);
          } catch (err) {
            // Rolled back, positions too: the next boot reads these events again.
            loadPositions();
            reply({ log: "error", message: "search index write failed", err: String(err) });
          }
          return;
        case "ping":
          reply({ id: m.id, pong: true });
          return;
        case "positions":
          reply({ id: m.id, positions: stmt.positions.raw().all() });
          return;
        case "forget":
          forget(m.tenantId);
          return;
        case "query": {
          const q = m.q;
          const rows = stmt.search.all(
            markOpen,
            markClose,
            q.match,
            q.tenantId,
            q.beforeSeq,
            JSON.stringify(q.conversationIds),
            q.limit,
          );
          reply({ id: m.id, hits: rows.map((r) => ({ ...r, edited: r.edited === 1 })) });
          return;
        }
        case "close":
          db.close();
          reply({ id: m.id, closed: true });
          port.close();
          return;
      }
    } catch (err) {
      if ("id" in m) reply({ id: m.id, error: String(err) });
      else reply({ log: "error", message: `search index ${m.op} failed`, err: String(err) });
    }
  });
}

serve(workerData);
