import type pg from "pg";
import type { TStoredEvent, TUblEvent } from "../../../contracts/events.js";
import {
  ZAppendRequest,
  type TAppendRequest,
  type TAppendResponse,
  type TCheckpoint,
} from "../../../contracts/ledger.js";
import { formatCursor } from "../../../contracts/primitives.js";
import { AppError, isAppError, validationError } from "../../shared/errors.js";
import { systemClock } from "../../shared/clock.js";
import { defaultIds } from "../../shared/ids.js";
import { GENESIS_HASH } from "../chain.js";
import { createPolicyJudge, Refusal } from "../commit-group.js";
import type { Head } from "../head.js";
import { createDefaultPolicy } from "../default-policy.js";
import { factsOf } from "../fold.js";
import { plainAppendRequest, queryFilter, queryPage } from "../ledger.js";
import { appendLeaf, textLeafHash } from "../merkle/rfc6962.js";
import { loadOrCreateSigner, publishedKeys, retiredVerifiers } from "../signing.js";
import type { CheckpointRow } from "../store.js";
import { toStoredEvent } from "../stored-event.js";
import { migratePgLedger, pgStore, type PgEventRow } from "./store.js";
import { PAGE, replayPg, writeEvent } from "./pg-event-rows.js";
import { followPg } from "./pg-follow.js";
import { createPgTransparencyLog } from "./pg-tlog.js";
import { verifyPgTenant } from "./verify-pg.js";
import type { CreatePgLedgerDeps, PgAppendOptions, PgLedgerApi } from "./pg-ledger-api.js";

interface Pending {
  req: TAppendRequest;
  opts: PgAppendOptions | undefined;
  resolve(result: TAppendResponse): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; result: TAppendResponse } | { ok: false; error: unknown };

/**
 * The UBL on PostgreSQL (schema `ledger`), built to store exactly what the SQLite ledger stores:
 * the same payload bytes, hash chain, RFC 6962 tree and signed checkpoints for the same events.
 *
 * An append group is one transaction. It first locks the heads of the tenants it writes
 * (`SELECT … FOR UPDATE`, in tenant order); if another process moved a head past what this one
 * has folded, the missing events are read and folded in that transaction before the policy pack
 * judges anything, so every judgement is against the committed history. `tenant_seq` is the
 * locked head + 1. Commits in this process are one at a time (the fold is one undo log for all
 * tenants); different processes commit different tenants in parallel.
 *
 * Each commit sends NOTIFY `ledger` with `<tenant>:<tenant_seq>`. Every ledger follows the
 * others' commits: a notification is a hint to read that tenant after its local head (the
 * database is the truth, the payload is never applied), and a sweep of `ledger.heads` every
 * second catches what a lost notification or a dropped listening connection missed. Followed
 * events are folded and published in tenant_seq order, one at a time with this process's own
 * commits. `head`, `tenants`, `facts` and the Merkle log's sizes are this process's view, at
 * most about a second behind.
 */

export async function createPgLedger(deps: CreatePgLedgerDeps): Promise<PgLedgerApi> {
  const { pool } = deps;
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? defaultIds;
  const defaults = deps.engine && deps.fold ? undefined : createDefaultPolicy(deps.policyParams);
  const engine = deps.engine ?? defaults!.engine;
  const fold = deps.fold ?? defaults!.fold;
  const judge = createPolicyJudge({ engine, fold, clock, ids });

  if (deps.migrate !== false) await migratePgLedger(pool);
  // Once there is history, its key must be the one that signed it: never a silent new one.
  const signedWith = deps.signer ? undefined : await pgStore.lastKeyId(pool);
  const signer = deps.signer ?? loadOrCreateSigner(deps.dataDir, signedWith);
  const retired = deps.dataDir ? retiredVerifiers(deps.dataDir).filter((v) => v.keyId !== signer.keyId) : [];

  const heads = new Map<string, Head>();
  const headOf = (tenantId: string): Head => heads.get(tenantId) ?? { seq: 0, hash: GENESIS_HASH, frontier: [] };

  /**
   * Folds the tenant's stored events after this process's head, checking each links to the one
   * before, and extends the head and Merkle frontier with them; `sink` gets them as stored.
   */
  async function catchUp(q: pg.Pool | pg.PoolClient, tenantId: string, sink?: TStoredEvent[]): Promise<void> {
    for (;;) {
      let head = headOf(tenantId);
      const rows = await pgStore.scanTenant(q, tenantId, head.seq, PAGE);
      for (const row of rows) {
        const [seq, payload, prevHash] = row;
        if (seq !== head.seq + 1 || prevHash !== head.hash)
          throw new Error(`ledger.events of ${tenantId} do not continue the chain at tenant_seq ${seq}`);
        const event = JSON.parse(payload) as TUblEvent;
        fold.apply(event);
        const tree = appendLeaf(head.frontier, head.seq, textLeafHash(payload));
        head = { seq, hash: row[3], frontier: tree.frontier };
        sink?.push(toStoredEvent(row));
      }
      if (rows.length > 0) heads.set(tenantId, head);
      if (rows.length < PAGE) return;
    }
  }

  for (const h of await pgStore.heads(pool)) await catchUp(pool, h.tenant_id);
  fold.release(fold.mark());

  const tlog = createPgTransparencyLog({ pool, heads, signer, retired, logName: deps.logName });

  const listeners = new Set<(e: TStoredEvent) => void>();
  const publish = (events: TStoredEvent[]) => {
    for (const e of events) {
      for (const l of listeners) {
        try {
          l(e);
        } catch (err) {
          deps.onListenerError?.(err);
        }
      }
    }
  };

  async function writeBatch(tx: pg.PoolClient, p: Pending, out: TStoredEvent[]): Promise<Outcome> {
    const tenantId = p.req.tenant_id;
    const hadHead = heads.has(tenantId);
    const head0 = headOf(tenantId);
    const mark = fold.mark();
    const rows: PgEventRow[] = [];
    const batchOut: TStoredEvent[] = [];
    try {
      const { head, accepted } = judge.batch(tenantId, p.req.events, head0, (event, h) =>
        writeEvent(event, h, rows, batchOut),
      );
      const result: TAppendResponse = { ok: true, accepted_event_ids: accepted, cursor: formatCursor(head.seq) };
      await tx.query("SAVEPOINT ledger_batch");
      try {
        await pgStore.insertEvents(tx, rows);
        await runWithinCommit(p.opts, result, tx);
      } catch (e) {
        await tx.query("ROLLBACK TO SAVEPOINT ledger_batch");
        throw e;
      }
      await tx.query("RELEASE SAVEPOINT ledger_batch");
      heads.set(tenantId, head);
      for (const e of batchOut) out.push(e);
      return { ok: true, result };
    } catch (e) {
      fold.rollbackTo(mark);
      if (hadHead) heads.set(tenantId, head0);
      else heads.delete(tenantId);
      if (!(e instanceof Refusal)) return { ok: false, error: e };
      return { ok: false, error: await refusalError(tx, tenantId, e, out) };
    }
  }

  /** Writes the refused batch's `policy.violation` (when the pack emits one) and builds the error. */
  async function refusalError(tx: pg.PoolClient, tenantId: string, r: Refusal, out: TStoredEvent[]) {
    const rows: PgEventRow[] = [];
    const error = judge.refuse(
      tenantId,
      r,
      (ve) => void heads.set(tenantId, writeEvent(ve, headOf(tenantId), rows, out)),
    );
    if (rows.length > 0) await pgStore.insertEvents(tx, rows);
    return error;
  }

  /** The transaction a `withinCommit` is running on, while its synchronous part runs (see `alongside`). */
  let within: { tx: pg.PoolClient; writes: Promise<unknown>[] } | undefined;

  async function runWithinCommit(opts: PgAppendOptions | undefined, result: TAppendResponse, tx: pg.PoolClient) {
    if (!opts?.withinCommit) return;
    const scope = { tx, writes: [] as Promise<unknown>[] };
    within = scope;
    let ran: void | Promise<void>;
    try {
      ran = opts.withinCommit(result, tx);
    } finally {
      within = undefined;
    }
    const settled = await Promise.allSettled([ran, ...scope.writes]);
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  }

  async function writeGroup(group: Pending[]): Promise<void> {
    const tenants = [...new Set(group.map((p) => p.req.tenant_id))];
    const caughtUp: TStoredEvent[] = [];
    const committed: TStoredEvent[] = [];
    const outcomes: Outcome[] = [];
    let tx: pg.PoolClient | undefined;
    let groupMark: number | undefined;
    const headsBefore = new Map<string, Head | undefined>();
    try {
      tx = await pool.connect();
      await tx.query("BEGIN");
      const locked = await pgStore.lockHeads(tx, tenants, GENESIS_HASH);
      for (const t of tenants) {
        const stored = locked.get(t)!;
        if (stored.seq > headOf(t).seq) await catchUp(tx, t, caughtUp);
        if (stored.seq !== headOf(t).seq || stored.hash !== headOf(t).hash)
          throw new Error(`the head of ${t} in ledger.heads is not the end of its events`);
      }
      // What was caught up is committed history: a failure below never takes it back.
      fold.release(fold.mark());
      groupMark = fold.mark();
      for (const t of tenants) headsBefore.set(t, heads.get(t));
      for (const p of group) outcomes.push(await writeBatch(tx, p, committed));
      const written = [...new Set(committed.map((e) => e.tenant_id))];
      const ts = clock.iso();
      const cps: CheckpointRow[] = written.map((tenantId) => {
        const h = headOf(tenantId);
        const claim = { tenant_id: tenantId, tenant_seq: h.seq, head_hash: h.hash };
        return { ...claim, signature: signer.signCheckpoint(claim), key_id: signer.keyId, ts };
      });
      await pgStore.finishCommit(tx, cps);
      await tx.query("COMMIT");
    } catch (e) {
      if (tx) await tx.query("ROLLBACK").catch(() => {});
      if (groupMark !== undefined) {
        fold.rollbackTo(groupMark);
        fold.release(groupMark);
      }
      for (const [k, v] of headsBefore) v ? heads.set(k, v) : heads.delete(k);
      tx?.release(true);
      publish(caughtUp);
      const error = isAppError(e)
        ? e
        : new AppError(
            "STORAGE_UNAVAILABLE",
            "The database did not take the write; nothing was written. Retry shortly.",
            { storage_code: String((e as { code?: unknown }).code ?? "UNKNOWN") },
            { cause: e },
          );
      for (const p of group) p.reject(error);
      return;
    }
    tx.release();
    fold.release(fold.mark());
    publish(caughtUp);
    publish(committed);
    for (const [i, o] of outcomes.entries()) {
      if (o.ok) group[i]!.resolve(o.result);
      else group[i]!.reject(o.error);
    }
  }

  // Group commit, one transaction at a time: appends that arrive while one commits wait for the next.
  let queue: Pending[] = [];
  let scheduled = false;
  let closed = false;
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    scheduled = false;
    const group = queue;
    queue = [];
    if (group.length > 0) writing = writing.then(() => writeGroup(group));
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    const wait = deps.maxBatchWaitMs ?? 0;
    if (wait > 0) setTimeout(flush, wait);
    else setImmediate(flush);
  };

  // Following: catch-ups run in the write chain, so a commit's fold marks never interleave with them.
  const stale = new Set<string>();
  let catchUpQueued = false;
  const catchUpStale = () => {
    catchUpQueued = false;
    const tenants = [...stale];
    stale.clear();
    writing = writing.then(async () => {
      const seen: TStoredEvent[] = [];
      try {
        for (const t of tenants) await catchUp(pool, t, seen);
        fold.release(fold.mark());
      } catch (err) {
        deps.onListenerError?.(err);
      }
      publish(seen);
    });
  };
  const hint = (tenantId: string) => {
    if (closed) return;
    stale.add(tenantId);
    if (!catchUpQueued) {
      catchUpQueued = true;
      setImmediate(catchUpStale);
    }
  };
  // The follower's lag: for each tenant a sweep found ahead of this process, the head it saw and
  // when, until this process reaches it; and when a sweep last answered at all.
  const behind = new Map<string, { seq: number; at: number }>();
  let sweptAt = performance.now();
  const sweep = async () => {
    try {
      const now = performance.now();
      for (const h of await pgStore.heads(pool))
        if (h.tenant_seq > headOf(h.tenant_id).seq) {
          if (!behind.has(h.tenant_id)) behind.set(h.tenant_id, { seq: h.tenant_seq, at: now });
          hint(h.tenant_id);
        }
      sweptAt = now;
    } catch (err) {
      deps.onListenerError?.(err);
    }
  };
  const lagMs = () => {
    const now = performance.now();
    let lag = Math.max(0, now - sweptAt - (deps.sweepMs ?? 1000));
    for (const [t, b] of behind) {
      if (headOf(t).seq >= b.seq) behind.delete(t);
      else lag = Math.max(lag, now - b.at);
    }
    return lag;
  };
  const following =
    deps.follow === false
      ? undefined
      : await followPg({
          pool,
          sweepMs: deps.sweepMs ?? 1000,
          sweep,
          hint,
          onError: (err) => deps.onListenerError?.(err),
        });

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
      return new Promise<TAppendResponse>((resolve, reject) => {
        queue.push({ req: batch, opts, resolve, reject });
        schedule();
      });
    },

    async query(req) {
      const { q, filter } = queryFilter(req);
      return queryPage(await pgStore.query(pool, filter), q);
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    replay: (onEvent, opts) => replayPg(pool, onEvent, opts),

    head(tenantId) {
      const h = heads.get(tenantId);
      return h ? { tenant_seq: h.seq, hash: h.hash } : { tenant_seq: 0, hash: GENESIS_HASH };
    },

    async checkpoint(tenantId): Promise<TCheckpoint | null> {
      return (await pgStore.latestCheckpoint(pool, tenantId)) ?? null;
    },

    keys: () => publishedKeys(signer, retired),

    verify: (tenantId) => verifyPgTenant(pool, [signer, ...retired], tenantId),

    tlog,

    tenants() {
      return [...heads.keys()].sort();
    },

    facts: factsOf(fold),

    policySettings: (t) => engine.settings?.(fold, t) ?? null,

    alongside(write) {
      if (!within) throw new Error("alongside is called only from inside a withinCommit");
      within.writes.push(write(within.tx));
    },

    followLagSeconds: () => (following ? lagMs() / 1000 : 0),

    async close() {
      // Appends already queued are written before the ledger stops taking new ones.
      flush();
      closed = true;
      await following?.close();
      await writing;
      listeners.clear();
    },
  };
}
