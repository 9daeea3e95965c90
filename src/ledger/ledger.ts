import type { TStoredEvent, TUblEvent } from "../../contracts/events.js";
import {
  ZAppendRequest,
  ZQueryRequest,
  type TAppendRequest,
  type TQueryRequest,
  type TAppendResponse,
  type TCheckpoint,
} from "../../contracts/ledger.js";
import { formatCursor, parseCursor } from "../../contracts/primitives.js";
import { AppError, validationError } from "../shared/errors.js";
import { systemClock, type Clock } from "../shared/clock.js";
import { defaultIds, type IdGenerator } from "../shared/ids.js";
import type { Db } from "../shared/db.js";
import type { LedgerApi, LedgerPage } from "./ledger-api.js";
import type { LedgerFold, PolicyEngine } from "./policy/types.js";
import { GENESIS_HASH } from "./chain.js";
import { createCommitGroupWriter, type PendingAppend } from "./commit-group.js";
import type { Head } from "./head.js";
import { createDefaultPolicy } from "./default-policy.js";
import { factsOf } from "./fold.js";
import { loadOrCreateSigner, publishedKeys, retiredVerifiers, type Signer } from "./signing.js";
import { createLedgerStore, migrateLedger, type LedgerStore, type QueryFilter, type ScanRow } from "./store.js";
import { loadFrontier } from "./merkle/tree-store.js";
import { createTransparencyLog } from "./merkle/log.js";

/** The log name when none is configured (signed notes need one). */
const DEFAULT_LOG_NAME = "logline.local";
import { toStoredEvent } from "./stored-event.js";
import { verifyTenant } from "./verify.js";

export interface CreateLedgerDeps {
  db: Db;
  /** Where the signing key lives; without it the key is ephemeral. */
  dataDir?: string | undefined;
  clock?: Clock;
  ids?: IdGenerator;
  engine?: PolicyEngine;
  /** Deployment parameters of the default policy pack (ignored with an injected engine), e.g. `message_edit_window_seconds`. */
  policyParams?: Readonly<Record<string, number>>;
  /** Must be empty: the ledger folds its own table into it on boot. */
  fold?: LedgerFold;
  /** `full` (default): an acknowledged append survives power loss. `normal`: faster, may lose the last commits. */
  sync?: "full" | "normal";
  /** 0 (default) gathers the appends of one event-loop turn; more waits that long for company. */
  maxBatchWaitMs?: number;
  signer?: Signer;
  /** A subscriber threw; the commit itself has already succeeded. */
  onListenerError?: (err: unknown) => void;
  /** The log's name in signed checkpoints (key name; origins are `<name>/<tenant_id>`). */
  logName?: string;
  /** Called with each append's latency in ms (queued → committed or refused), for metrics. */
  onAppend?: (ms: number) => void;
}

/**
 * `ZAppendRequest.safeParse(req).data` for a request it accepts, without the parse: a plain
 * object of exactly `tenant_id` (1–128 units) and `events` (an array of 1–1000). The events are
 * copied into a new array as the parse does (holes become undefined). Anything else returns
 * null and the caller runs the contract parse, which gives the verdict and the message: every
 * refusal still comes from the contract (test/ledger/append-request.test.ts compares the two).
 */
export function plainAppendRequest(req: unknown): TAppendRequest | null {
  if (typeof req !== "object" || req === null || Object.getPrototypeOf(req) !== Object.prototype) return null;
  const r = req as Record<string, unknown>;
  if (Object.keys(r).length !== 2 || !Object.hasOwn(r, "tenant_id") || !Object.hasOwn(r, "events")) return null;
  const { tenant_id, events } = r;
  if (typeof tenant_id !== "string" || tenant_id.length < 1 || tenant_id.length > 128) return null;
  if (!Array.isArray(events) || events.length < 1 || events.length > 1000) return null;
  return { tenant_id, events: Array.from(events as unknown[]) };
}

/**
 * A query request checked against the contract, and the store filter it asks for: one row more
 * than the page, so that `queryPage` can tell whether there is more. Both ledgers read this way.
 */
export function queryFilter(req: TQueryRequest): { q: { tenant_id: string; limit: number }; filter: QueryFilter } {
  const parsed = ZQueryRequest.safeParse(req);
  if (!parsed.success) throw validationError(parsed.error.issues, "query");
  const q = parsed.data;
  const after = q.after_cursor === undefined ? 0 : parseCursor(q.after_cursor)!;
  return {
    q,
    filter: {
      tenantId: q.tenant_id,
      conversationId: q.conversation_id,
      jobId: q.job_id,
      eventType: q.event_type,
      afterTenantSeq: after,
      limit: q.limit + 1,
    },
  };
}

/** The page of a query from the rows `queryFilter`'s filter read: at most `limit` events, and a cursor when there are more. */
export function queryPage(rows: ScanRow[], q: { tenant_id: string; limit: number }): LedgerPage {
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  return {
    tenant_id: q.tenant_id,
    events: page.map(toStoredEvent),
    next_cursor: more ? formatCursor(page[page.length - 1]![0]) : null,
  };
}

/**
 * The SQLite UBL. Boot applies the migrations, streams the table once into the fold (no hashing
 * on this path: `verify` is its own command) and loads each tenant's head.
 */
export function createSqliteLedger(deps: CreateLedgerDeps): LedgerApi {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? defaultIds;
  // The default fold keeps fingerprints of event and message ids and asks the table on a match
  // (see FoldOptions).
  let store: LedgerStore | undefined;
  const defaults =
    deps.engine && deps.fold
      ? undefined
      : createDefaultPolicy(deps.policyParams, {
          knownEvent: (t, id) => store!.hasEvent(t, id),
          messageIdAt: (t, seq) => store!.messageIdAt(t, seq),
        });
  const engine = deps.engine ?? defaults!.engine;
  const fold = deps.fold ?? defaults!.fold;
  if (deps.sync) db.pragma(`synchronous = ${deps.sync === "normal" ? "NORMAL" : "FULL"}`);

  migrateLedger(db);
  // Once there is history, its key must be the one that signed it: never a silent new one.
  const signedWith = deps.signer
    ? undefined
    : (db.prepare("SELECT key_id FROM ledger_checkpoints ORDER BY id DESC LIMIT 1").pluck().get() as
        | string
        | undefined);
  const signer = deps.signer ?? loadOrCreateSigner(deps.dataDir, signedWith);
  // Keys rotated out: the checkpoints they signed still verify, and they stay published.
  const retired = deps.dataDir ? retiredVerifiers(deps.dataDir).filter((v) => v.keyId !== signer.keyId) : [];
  store = createLedgerStore(db);
  const heads = new Map<string, Head>();
  const lastSeq = new Map<string, number>();
  // Each payload is parsed once, folded and dropped; a tenant's last seq is noted when the next
  // row is another tenant's (rows of one tenant mostly come in runs) and after the last row.
  let tenant = "";
  let seq = 0;
  for (const page of store.bootPayloads()) {
    for (const payload of page) {
      const event = JSON.parse(payload) as TUblEvent & { seq: number };
      fold.apply(event);
      if (event.tenant_id !== tenant) {
        if (seq > 0) lastSeq.set(tenant, seq);
        tenant = event.tenant_id;
      }
      seq = event.seq;
    }
  }
  if (seq > 0) lastSeq.set(tenant, seq);
  // Each tenant's Merkle frontier: O(log n) stored nodes, or the one-time fill of a log written
  // before the tree existed.
  db.transaction(() => {
    for (const [tenantId, seq] of lastSeq)
      heads.set(tenantId, { seq, hash: store.hashAt(tenantId, seq)!, frontier: loadFrontier(store, tenantId, seq) });
  })();
  fold.release(fold.mark());

  const tlog = createTransparencyLog({
    store,
    heads,
    logName: deps.logName ?? DEFAULT_LOG_NAME,
    signer,
    retiredPublicKeys: retired.map((k) => k.publicKeyHex),
  });

  const listeners = new Set<(e: TStoredEvent) => void>();
  const writeGroup = createCommitGroupWriter({
    db,
    store,
    signer,
    engine,
    fold,
    heads,
    clock,
    ids,
    onCommitted(events) {
      for (const e of events) {
        for (const l of listeners) {
          try {
            l(e);
          } catch (err) {
            deps.onListenerError?.(err);
          }
        }
      }
    },
  });

  // Group commit: appends that arrive in the same event-loop turn (or while the previous commit
  // held the thread in fsync) queue up and are written by one transaction.
  let queue: PendingAppend[] = [];
  let scheduled = false;
  let closed = false;
  const flush = () => {
    scheduled = false;
    const group = queue;
    queue = [];
    if (group.length > 0) writeGroup(group);
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    const wait = deps.maxBatchWaitMs ?? 0;
    if (wait > 0) setTimeout(flush, wait);
    else setImmediate(flush);
  };

  return {
    append(req, opts) {
      if (closed) return Promise.reject(new AppError("SERVICE_UNAVAILABLE", "The ledger is closed"));
      let valid = plainAppendRequest(req);
      if (!valid) {
        const parsed = ZAppendRequest.safeParse(req);
        if (!parsed.success) return Promise.reject(validationError(parsed.error.issues, "append request"));
        valid = parsed.data;
      }
      const batch = valid;
      const appended = new Promise<TAppendResponse>((resolve, reject) => {
        queue.push({ req: batch, opts, resolve, reject });
        schedule();
      });
      const onAppend = deps.onAppend;
      if (!onAppend) return appended;
      const started = performance.now();
      return appended.finally(() => onAppend(performance.now() - started));
    },

    query(req) {
      const { q, filter } = queryFilter(req);
      return queryPage(store.query(filter), q);
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    replay(onEvent, opts) {
      for (const row of store.scan(opts?.tenantId, opts?.afterTenantSeq ?? 0)) onEvent(toStoredEvent(row));
    },

    head(tenantId) {
      const h = heads.get(tenantId);
      return h ? { tenant_seq: h.seq, hash: h.hash } : { tenant_seq: 0, hash: GENESIS_HASH };
    },

    checkpoint(tenantId): TCheckpoint | null {
      return store.latestCheckpoint(tenantId) ?? null;
    },

    keys: () => publishedKeys(signer, retired),

    verify(tenantId) {
      return verifyTenant(store, [signer, ...retired], tenantId);
    },

    tlog,

    tenants() {
      return [...heads.keys()].sort();
    },

    commitPending: () => queue.length > 0,

    facts: factsOf(fold),

    policySettings: (t) => engine.settings?.(fold, t) ?? null,

    close() {
      // Appends already queued are written before the ledger stops taking new ones.
      flush();
      closed = true;
      listeners.clear();
    },
  };
}
