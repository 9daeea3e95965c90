import { AsyncLocalStorage } from "node:async_hooks";
import type { TIngestMessageRequest, TJobActionRequest } from "../../contracts/office.js";
import type { Clock } from "../shared/clock.js";
import type { Db } from "../shared/db.js";
import { AppError } from "../shared/errors.js";
import { isStorageError } from "../shared/storage-errors.js";
import type { AnswerFence } from "./emitter.js";
import type { ApplySuggestionInput, InboxWork } from "./office-api.js";
import type { Vault } from "./vault/vault.js";
import { inboxLabel } from "./vault/vault-key.js";

export interface InboxHandlers {
  message(req: TIngestMessageRequest): Promise<unknown>;
  job_action(req: TJobActionRequest): Promise<unknown>;
  suggestion(req: ApplySuggestionInput & { causation_id: string }): Promise<unknown>;
  hand_over(req: { tenant_id: string; trace_id: string; job_id: string; causation_id: string }): Promise<unknown>;
}

interface Answering {
  tenantId: string;
  eventId: string;
  /** `answered` once a commit removed the row; `lost` when another answerer had removed it first. */
  state?: "answered" | "lost" | undefined;
}

/** The refusal of an answer whose inbox row was already gone: someone else answered it. */
function alreadyAnswered(item: Answering): AppError {
  return new AppError("CONFLICT", "This inbox item was answered elsewhere", {
    tenant_id: item.tenantId,
    event_id: item.eventId,
    fenced: true,
  });
}

/** Whether an error is the fencing refusal of an answer (see createAnswerMarker). */
const isFencedAnswer = (e: unknown): boolean => e instanceof AppError && e.details?.fenced === true;

/**
 * Which inbox item the code running now answers. The emitter asks it for a fence to run inside
 * the transaction of the events it writes. The first answering commit deletes the item's row
 * through `remove` (SQLite's handle or PostgreSQL's client) and is refused when no row went:
 * the item was answered elsewhere (a stalled answerer that lost its turn), so nothing of it
 * commits, and every later answer of the item is refused before it is written. Once the item
 * is answered, later commits of the same answer (or of timers started while answering) skip it.
 */
export function createAnswerMarkerOn<Tx, Done extends void | Promise<void>>(
  remove: (tx: Tx, tenantId: string, eventId: string, gone: () => never) => Done,
) {
  const als = new AsyncLocalStorage<Answering>();
  return {
    /**
     * Runs `fn` as the answer of `item`. Once it resolves the item counts as answered (the inbox
     * deletes the row), so timers it started write without the fence.
     */
    run<T>(item: Answering, fn: () => Promise<T>): Promise<T> {
      const own: Answering = { ...item };
      return als.run(own, async () => {
        const out = await fn();
        if (own.state === undefined) own.state = "answered";
        return out;
      });
    },
    withinCommit(): AnswerFence<Tx, Done> | undefined {
      const item = als.getStore();
      if (!item || item.state === "answered") return undefined;
      if (item.state === "lost") throw alreadyAnswered(item);
      let removed = false;
      return {
        fence(tx) {
          // Another answer of the item committing in the same transaction deleted the row already.
          if (item.state === "answered") return undefined;
          // Counted as answered from here, so answers committed alongside this one skip the delete.
          item.state = "answered";
          removed = true;
          return remove(tx, item.tenantId, item.eventId, () => {
            throw alreadyAnswered(item);
          });
        },
        failed(err) {
          if (!removed) return;
          if (isFencedAnswer(err)) item.state = "lost";
          else if (item.state === "answered") item.state = undefined;
        },
      };
    },
  };
}

/** The answer marker over Office's SQLite table. */
export function createAnswerMarker(db: Db) {
  const sql = "DELETE FROM office_inbox WHERE tenant_id = ? AND event_id = ?";
  const remove = db.prepare(sql);
  return createAnswerMarkerOn((tx: Db, tenantId: string, eventId: string, gone: () => never): void => {
    if ((tx === db ? remove : tx.prepare(sql)).run(tenantId, eventId).changes === 0) gone();
  });
}
export type AnswerMarker = ReturnType<typeof createAnswerMarker>;

/** Backoff after an unexpected failure; storage failures (a full disk) retry without a cap. */
const RETRY_MS = [1_000, 5_000, 30_000, 60_000];
const MAX_ATTEMPTS = 5;

function eventIdOf(work: InboxWork): string {
  return work.kind === "message" ? work.request.message_event_id : work.request.causation_id;
}

/** A piece of accepted work as an inbox store keeps it. */
export interface InboxRecord {
  id: number;
  tenantId: string;
  eventId: string;
  kind: string;
  conversationId: string;
  request: string;
  acceptedAt: string;
  attempts: number;
}

/** A value now (SQLite) or later (PostgreSQL). */
type Awaitable<T> = T | Promise<T>;

/** Where the inbox keeps its rows: SQLite's table, or `office.inbox` shared by every process. */
export interface InboxStore {
  /** Keeps accepted work inside the accepting commit (the row commits with the event, or not at all). */
  insert(row: Omit<InboxRecord, "id" | "attempts">): void;
  /**
   * Rows that may not have been taken up yet, oldest first: on SQLite those after `after` (ids
   * grow in commit order); on PostgreSQL every row, as ids of concurrent commits show up out of order.
   */
  waiting(after: number): Awaitable<InboxRecord[]>;
  get(id: number): Awaitable<InboxRecord | undefined>;
  /** Deletes the row (answered, nothing to say, or refused). */
  remove(tenantId: string, eventId: string): Awaitable<void>;
  /** Notes a failed attempt. */
  failed(tenantId: string, eventId: string, attempts: number, lastError: string): Awaitable<void>;
  /** Rows not answered yet, as last counted. */
  count(): number;
}

/** The inbox over Office's SQLite table (statements prepared once: each message takes a row, reads it and deletes it). */
export function createSqliteInboxStore(db: Db): InboxStore {
  const columns =
    "id, tenant_id AS tenantId, event_id AS eventId, kind, conversation_id AS conversationId, request, accepted_at AS acceptedAt, attempts, last_error AS lastError";
  const key = "tenant_id = ? AND event_id = ?";
  const insert = db.prepare(
    "INSERT INTO office_inbox (tenant_id, event_id, kind, conversation_id, request, accepted_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const waiting = db.prepare<[number], InboxRecord>(`SELECT ${columns} FROM office_inbox WHERE id > ? ORDER BY id`);
  const get = db.prepare<[number], InboxRecord>(`SELECT ${columns} FROM office_inbox WHERE id = ?`);
  const remove = db.prepare(`DELETE FROM office_inbox WHERE ${key}`);
  const failed = db.prepare(`UPDATE office_inbox SET attempts = ?, last_error = ? WHERE ${key}`);
  const count = db.prepare("SELECT COUNT(*) FROM office_inbox").pluck();
  return {
    insert(row) {
      insert.run(row.tenantId, row.eventId, row.kind, row.conversationId, row.request, row.acceptedAt);
    },
    waiting: (after) => waiting.all(after),
    get: (id) => get.get(id),
    remove(tenantId, eventId) {
      remove.run(tenantId, eventId);
    },
    failed(tenantId, eventId, attempts, lastError) {
      failed.run(attempts, lastError, tenantId, eventId);
    },
    count: () => count.get() as number,
  };
}

/**
 * Office's durable inbox. `accept` runs inside the commit that writes the accepted event (so a
 * 202 means the row exists); the row is answered right after the commit and, if the process
 * stopped first, at the next start. A person's messages are answered one at a time per
 * conversation, in the order accepted; clicks run at once (jobs have their own locks).
 */
export function createInbox(deps: {
  store: InboxStore;
  vault: Vault;
  clock: Clock;
  marker: Pick<AnswerMarker, "run">;
  handlers: InboxHandlers;
  onError: (e: unknown, where: string) => void;
  onWarn?: (msg: string, details: Record<string, unknown>) => void;
  retryMs?: readonly number[];
}) {
  const retryMs = deps.retryMs ?? RETRY_MS;
  const { store } = deps;
  const running = new Map<number, Promise<void>>();
  const chains = new Map<string, Promise<void>>();
  const retryTimers = new Set<NodeJS.Timeout>();
  /** Rows whose failed answer waits for its backoff. */
  const backingOff = new Set<number>();
  let kickQueued = false;
  let kicking: Promise<void> = Promise.resolve();
  let stopped = true;

  const label = inboxLabel;

  function accept(work: InboxWork): void {
    const eventId = eventIdOf(work);
    const tenantId = work.request.tenant_id;
    const conversationId =
      "conversation_id" in work.request && work.request.conversation_id ? work.request.conversation_id : "";
    store.insert({
      tenantId,
      eventId,
      kind: work.kind,
      conversationId,
      request: deps.vault.seal(tenantId, label(work.kind, eventId), JSON.stringify(work.request)),
      acceptedAt: deps.clock.iso(),
    });
    // After the current commit: a row whose transaction rolled back is not found.
    queueKick();
  }

  function queueKick(): void {
    if (kickQueued || stopped) return;
    kickQueued = true;
    setImmediate(() => {
      kickQueued = false;
      kicking = kicking.then(kick);
    });
  }

  /** The highest row taken up: on SQLite each kick reads only rows accepted since (one indexed range). */
  let seen = 0;

  /** Starts the rows accepted since the last kick, oldest first. */
  async function kick(): Promise<void> {
    if (stopped) return;
    let rows: InboxRecord[];
    try {
      rows = await store.waiting(seen);
    } catch (e) {
      deps.onError(e, "inbox.kick");
      return;
    }
    if (stopped) return;
    for (const row of rows) {
      seen = Math.max(seen, row.id);
      if (!running.has(row.id) && !backingOff.has(row.id)) start(row);
    }
  }

  /** A row whose answer failed, taken up again when its backoff is over (if it is still there). */
  async function retry(id: number): Promise<void> {
    backingOff.delete(id);
    if (stopped || running.has(id)) return;
    try {
      const row = await store.get(id);
      if (row && !stopped && !running.has(id)) start(row);
    } catch (e) {
      deps.onError(e, "inbox.retry");
    }
  }

  function start(row: InboxRecord): void {
    const chainKey = row.kind === "message" ? `${row.tenantId}|${row.conversationId}` : undefined;
    const before = chainKey ? chains.get(chainKey) : undefined;
    const p = (async () => {
      if (before) await before;
      await answer(row);
    })().finally(() => {
      running.delete(row.id);
      if (chainKey && chains.get(chainKey) === p) chains.delete(chainKey);
    });
    running.set(row.id, p);
    if (chainKey) chains.set(chainKey, p);
  }

  /** Deletes the row (answered, nothing to say, or refused). A failure here leaves it for a rerun, which is safe: nothing was written for it. */
  async function finish(row: InboxRecord): Promise<void> {
    try {
      await store.remove(row.tenantId, row.eventId);
    } catch (e) {
      deps.onError(e, "inbox.finish");
    }
  }

  async function answer(row: InboxRecord): Promise<void> {
    if (stopped) return;
    let request: unknown;
    try {
      request = JSON.parse(deps.vault.unseal(row.tenantId, label(row.kind, row.eventId), row.request));
    } catch (e) {
      deps.onError(e, "inbox.unseal");
      await finish(row);
      return;
    }
    try {
      await deps.marker.run({ tenantId: row.tenantId, eventId: row.eventId }, () => handle(row.kind, request));
      await finish(row);
    } catch (e) {
      if (isFencedAnswer(e)) {
        // Its row went before this answer could commit: another answerer had it, and nothing of this one was written.
        deps.onWarn?.("inbox item answered elsewhere", { kind: row.kind, event_id: row.eventId });
        return;
      }
      if (e instanceof AppError && e.status < 500) {
        // A refusal is an answer too (a stale click, a sender who left): nothing to retry.
        deps.onWarn?.("office refused accepted work", { kind: row.kind, event_id: row.eventId, code: e.code });
        await finish(row);
        return;
      }
      const storage =
        isStorageError(e) ||
        isStorageError((e as { cause?: unknown } | null)?.cause) ||
        (e instanceof AppError && (e.code === "STORAGE_FULL" || e.code === "STORAGE_UNAVAILABLE"));
      const attempts = row.attempts + 1;
      if (!storage && attempts >= MAX_ATTEMPTS) {
        deps.onError(e, "inbox.gave_up");
        await finish(row);
        return;
      }
      if (stopped) return; // stopping: the row stays and is answered at the next start
      deps.onError(e, "inbox.retry");
      try {
        await store.failed(
          row.tenantId,
          row.eventId,
          attempts,
          (e instanceof Error ? e.message : String(e)).slice(0, 300),
        );
      } catch {
        // The disk may still be full: the retry below runs with the old count.
      }
      backingOff.add(row.id);
      const t = setTimeout(
        () => {
          retryTimers.delete(t);
          void retry(row.id);
        },
        retryMs[Math.min(attempts, retryMs.length) - 1],
      );
      retryTimers.add(t);
    }
  }

  function handle(kind: string, request: unknown): Promise<unknown> {
    switch (kind) {
      case "message":
        return deps.handlers.message(request as TIngestMessageRequest);
      case "job_action":
        return deps.handlers.job_action(request as TJobActionRequest);
      case "suggestion":
        return deps.handlers.suggestion(request as ApplySuggestionInput & { causation_id: string });
      case "hand_over":
        return deps.handlers.hand_over(request as Parameters<InboxHandlers["hand_over"]>[0]);
      default:
        return Promise.reject(new AppError("VALIDATION_ERROR", `Unknown inbox kind ${kind}`));
    }
  }

  /** Resolves when nothing is running or queued (retries waiting on a timer excepted). */
  async function idle(): Promise<void> {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      await kicking;
      if (!running.size && !kickQueued) return;
      await Promise.allSettled([...running.values()]);
    }
  }

  return {
    accept,
    /** Answers what was accepted before the last stop, and from now on what is accepted. */
    start(): void {
      stopped = false;
      seen = 0;
      kicking = kicking.then(kick);
    },
    /** Looks for rows another process accepted (their commit was followed here). */
    kick: queueKick,
    idle,
    /** Rows not yet answered (the metrics gauge). */
    pending: (): number => store.count(),
    /**
     * Stops taking up rows and waits up to `ms` for the ones running. What is unfinished stays
     * in the table and is answered at the next start.
     */
    async drain(ms: number): Promise<{ drained: boolean; left: number }> {
      stopped = true;
      for (const t of retryTimers) clearTimeout(t);
      retryTimers.clear();
      backingOff.clear();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), ms)));
      const done = await Promise.race([
        Promise.allSettled([...running.values()]).then(() => "done" as const),
        deadline,
      ]);
      clearTimeout(timer);
      return { drained: done === "done", left: running.size };
    },
    stop(): void {
      stopped = true;
      for (const t of retryTimers) clearTimeout(t);
      retryTimers.clear();
      backingOff.clear();
    },
  };
}
