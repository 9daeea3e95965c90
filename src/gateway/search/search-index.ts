import { Worker } from "node:worker_threads";
import { formatCursor } from "../../../contracts/primitives.js";
import type { TStoredEvent } from "../../../contracts/events.js";
import type { LedgerDoorApi } from "../../ledger/index.js";
import { AppError } from "../../shared/errors.js";
import type { Logger } from "../logger.js";
import type { FromWorker, IndexHit, IndexOp, IndexQuery, ToWorker } from "./protocol.js";
import { CONTROL_CHARS, MARK_CLOSE, MARK_OPEN } from "./snippet.js";

export interface SearchIndex {
  /**
   * Messages of `conversationIds` matching the FTS5 `match`, newest first, with seq below
   * `beforeSeq`; at most `limit`. Answered once the index holds every event committed before
   * the call (the catch-up on boot included), so a message is found right after its post.
   */
  query(q: IndexQuery): Promise<IndexHit[]>;
  /** Resolves when the index holds every event committed before the call. */
  settled(): Promise<void>;
  /** Stops following the ledger; resolves when what was taken in is written and the file closed. */
  close(): Promise<void>;
  /** Stops the index's thread as a crash would (tests): it is started again and catches up. */
  stopThread(): Promise<void>;
}

const PAGE = 1000;

/**
 * The message search index: SQLite FTS5 in its own file (`path`, or `:memory:`), written and
 * queried by a worker thread (search-worker.mjs) so that tokenizing never costs the thread that
 * commits. It follows the ledger like a projection, but is stored: per tenant it keeps the
 * tenant_seq and event id it has read up to, and boot reads the rest of the ledger from there
 * (everything when the file is new, or when its position is not in this ledger's history, as
 * after a restore). Committed events are handed over once per event-loop turn, in order; a
 * query goes through the same port after them.
 */
export function createSearchIndex(deps: { path: string; ledger: LedgerDoorApi; logger: Logger }): SearchIndex {
  let nextId = 1;
  const waiting = new Map<number, { resolve: (m: FromWorker) => void; reject: (e: Error) => void }>();
  let worker: Worker;
  let alive = false;
  let ready: Promise<void>;
  const unavailable = () =>
    new AppError("SERVICE_UNAVAILABLE", "Search is starting again; try again in a moment", { retry_after_s: 1 });
  const call = (m: ToWorker & { id: number }) =>
    new Promise<FromWorker>((resolve, reject) => {
      if (!alive) return reject(unavailable());
      waiting.set(m.id, { resolve, reject });
      worker.postMessage(m);
    });
  const onMessage = (m: FromWorker) => {
    if ("log" in m) return deps.logger.error({ err: m.err }, m.message);
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if ("error" in m) w.reject(new Error(m.error));
    else w.resolve(m);
  };

  // What committed since the last hand-over: the index's changes, and each tenant's last event.
  let ops: IndexOp[] = [];
  const seen = new Map<string, [number, string]>();
  let scheduled: NodeJS.Immediate | undefined;
  // Committed events are taken in from the start, and held while the catch-up reads the stored
  // log: handed over then, what the catch-up already sent is skipped by position.
  let catching = true;
  let closed = false;

  const take = (ev: TStoredEvent, into: IndexOp[]) => {
    if (ev.event_type === "message.sent") {
      const m = ev.payload;
      if (m.kind === "text" && typeof m.body_text === "string" && m.body_text.trim() !== "") {
        into.push({
          k: "sent",
          t: ev.tenant_id,
          seq: ev.seq,
          conv: ev.conversation_id,
          msg: m.message_id,
          ev: ev.event_id,
          ts: ev.ts,
          author: ev.actor.entity_id,
          authorType: ev.actor.actor_type,
          body: m.body_text,
        });
      }
    } else if (ev.event_type === "message.edited") {
      const p = ev.payload;
      into.push({
        k: "edited",
        t: ev.tenant_id,
        seq: ev.seq,
        conv: ev.conversation_id,
        msg: p.message_id,
        body: p.body_text,
      });
    } else if (ev.event_type === "message.deleted") {
      into.push({ k: "deleted", t: ev.tenant_id, seq: ev.seq, conv: ev.conversation_id, msg: ev.payload.message_id });
    }
  };

  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = undefined;
    if (catching || !alive || seen.size === 0) return;
    const batch: ToWorker = { op: "write", ops, seen: [...seen].map(([t, [seq, id]]) => [t, seq, id]) };
    ops = [];
    seen.clear();
    worker.postMessage(batch);
  };

  const unsubscribe = deps.ledger.subscribe((ev) => {
    take(ev, ops);
    seen.set(ev.tenant_id, [ev.seq, ev.event_id]);
    scheduled ??= setImmediate(flush);
  });

  /** The event at `seq`, to tell whether the index's position is in this ledger's history. */
  async function eventIdAt(tenantId: string, seq: number): Promise<string | undefined> {
    const page = await deps.ledger.query({ tenant_id: tenantId, after_cursor: formatCursor(seq - 1), limit: 1 });
    const ev = page.events[0];
    return ev?.seq === seq ? ev.event_id : undefined;
  }

  async function catchUp(w: Worker, tenantId: string, at: [number, string] | undefined): Promise<void> {
    const head = deps.ledger.head(tenantId).tenant_seq;
    let from = at?.[0] ?? 0;
    if (at && (at[0] > head || (await eventIdAt(tenantId, at[0])) !== at[1])) {
      // The file is from another history (a restore, an import): start again from the ledger.
      w.postMessage({ op: "forget", tenantId } satisfies ToWorker);
      from = 0;
    }
    if (from >= head) return;
    deps.logger.info({ tenant_id: tenantId, from, head }, "search index catching up with the ledger");
    let after = from;
    // At most two pages wait in the thread's queue: a long log is not copied into it at once.
    let written: Promise<unknown> | undefined;
    for (;;) {
      const page = await deps.ledger.query({ tenant_id: tenantId, after_cursor: formatCursor(after), limit: PAGE });
      if (closed || w !== worker || page.events.length === 0) break;
      const pageOps: IndexOp[] = [];
      for (const ev of page.events) take(ev, pageOps);
      const last = page.events[page.events.length - 1]!;
      w.postMessage({ op: "write", ops: pageOps, seen: [[tenantId, last.seq, last.event_id]] } satisfies ToWorker);
      await written;
      written = call({ op: "ping", id: nextId++ });
      after = last.seq;
      if (!page.next_cursor) break;
    }
    await written;
  }

  // Pages are read with ledger.query (arrays), not replay (an open cursor on the shared
  // connection, which forbids writing until it ends).
  async function catchUpAll(w: Worker): Promise<void> {
    const answer = await call({ op: "positions", id: nextId++ });
    const stored = new Map(
      ("positions" in answer ? answer.positions : []).map(([t, seq, id]) => [t, [seq, id] as [number, string]]),
    );
    const tenants = new Set(deps.ledger.tenants());
    for (const t of stored.keys()) if (!tenants.has(t)) w.postMessage({ op: "forget", tenantId: t } satisfies ToWorker);
    for (const t of tenants) if (!closed && w === worker) await catchUp(w, t, stored.get(t));
  }

  // A thread that stops (it should not) is started again, after 1 s, doubling while it keeps
  // stopping within a minute of its start; meanwhile searches answer 503 and what commits is
  // held, then the new thread catches up from its file's positions.
  let delayMs = 500;
  let startedAt = 0;
  function start(): void {
    const w = startWorker(deps.path);
    w.unref();
    worker = w;
    alive = true;
    catching = true;
    startedAt = performance.now();
    w.on("message", onMessage);
    w.on("error", (err) => deps.logger.error({ err }, "search index thread failed"));
    w.on("exit", () => {
      if (w !== worker) return;
      alive = false;
      for (const x of waiting.values()) x.reject(unavailable());
      waiting.clear();
      if (closed) return;
      catching = true;
      delayMs = performance.now() - startedAt < 60_000 ? Math.min(delayMs * 2, 60_000) : 1000;
      deps.logger.error({ restart_in_ms: delayMs }, "search index thread stopped; starting it again");
      setTimeout(() => closed || start(), delayMs).unref();
    });
    ready = catchUpAll(w).then(
      () => {
        if (w !== worker || !alive) return;
        catching = false;
        flush();
      },
      (err: unknown) => {
        if (w !== worker || !alive) return;
        // Positions stay where the failure left them: the next boot reads the rest again.
        deps.logger.error({ err }, "search index catch-up failed");
        catching = false;
        flush();
      },
    );
  }
  start();

  const settled = async () => {
    await ready;
    flush();
  };

  return {
    async query(q) {
      await settled();
      const answer = await call({ op: "query", id: nextId++, q });
      return "hits" in answer ? answer.hits : [];
    },
    settled,
    async close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      await ready;
      flush();
      try {
        await call({ op: "close", id: nextId++ });
      } catch {
        // The thread had stopped already.
      }
      await worker.terminate();
    },
    async stopThread() {
      await worker.terminate();
    },
  };
}

/** The index's thread: plain JavaScript, started without the TypeScript loader the server may run under. */
function startWorker(path: string): Worker {
  return new Worker(new URL("./search-worker.mjs", import.meta.url), {
    execArgv: [],
    workerData: { path, markOpen: MARK_OPEN, markClose: MARK_CLOSE, control: CONTROL_CHARS.source },
  });
}
