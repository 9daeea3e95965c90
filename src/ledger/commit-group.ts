import type { TAppendRequest, TAppendResponse } from "../../contracts/ledger.js";
import type { TErrorCode } from "../../contracts/errors.js";
import type { TStoredEvent, TUblEvent } from "../../contracts/events.js";
import { formatCursor } from "../../contracts/primitives.js";
import { AppError } from "../shared/errors.js";
import type { Db } from "../shared/db.js";
import type { Clock } from "../shared/clock.js";
import type { IdGenerator } from "../shared/ids.js";
import type { AppendOptions } from "./ledger-api.js";
import type { LedgerFold, PolicyEngine, PolicyViolation } from "./policy/types.js";
import type { Head } from "./head.js";
import type { LedgerStore } from "./store.js";
import type { Signer } from "./signing.js";
import { canonicalize } from "./canonical-json.js";
import { chainAndLeafHash, GENESIS_HASH } from "./chain.js";
import { appendLeaf } from "./merkle/rfc6962.js";
import { isStorageError, toStorageError } from "../shared/storage-errors.js";

export interface PendingAppend {
  req: TAppendRequest;
  opts: AppendOptions | undefined;
  resolve(result: TAppendResponse): void;
  reject(error: unknown): void;
}

export interface CommitGroupDeps {
  db: Db;
  store: LedgerStore;
  signer: Signer;
  engine: PolicyEngine;
  fold: LedgerFold;
  heads: Map<string, Head>;
  clock: Clock;
  ids: IdGenerator;
  /** Called after the commit is durable with every stored event, in commit order. */
  onCommitted(events: TStoredEvent[]): void;
}

/** A policy refusal travelling out of a batch. */
export class Refusal {
  constructor(
    readonly index: number,
    readonly raw: unknown,
    readonly violation: PolicyViolation,
  ) {}
}

/**
 * The policy pack as every ledger applies it to a batch: each event checked in order against the
 * fold (which then takes it), warnings and refusals written as `policy.violation` events of the
 * tenant that sent them. The stores differ only in how an event is written (`write`).
 */
export function createPolicyJudge(deps: { engine: PolicyEngine; fold: LedgerFold; clock: Clock; ids: IdGenerator }) {
  const { engine, fold, clock, ids } = deps;

  function violationEvent(tenantId: string, raw: unknown, v: PolicyViolation, mode: "enforce" | "warn") {
    const event = engine.violationEvent(raw, v, {
      event_id: ids("evt"),
      ts: clock.iso(),
      mode,
      tenant_id: tenantId,
      fold,
    });
    // A violation is recorded in the ledger of the tenant that sent it, never in a tenant the
    // refused event claimed to belong to.
    return event ? ({ ...event, tenant_id: tenantId } as TUblEvent) : null;
  }

  function checkOne(tenantId: string, raw: unknown) {
    const claimed = (raw as { tenant_id?: unknown } | null)?.tenant_id;
    if (claimed !== undefined && claimed !== tenantId) {
      return {
        ok: false as const,
        violation: {
          policy_id: "policy.tenant_scope",
          code: "TENANT_SCOPE_VIOLATION",
          message_safe: "Event tenant_id differs from the request's tenant_id",
        },
        warnings: [],
      };
    }
    return engine.check(fold, raw);
  }

  return {
    /**
     * Judges and folds a batch's events in order, writing each accepted one (and each warning's
     * violation) with `write`, which returns the new head. Throws a `Refusal` at the first
     * refused event; the caller rolls back the fold and the rows.
     */
    batch(tenantId: string, events: readonly unknown[], head0: Head, write: (event: TUblEvent, head: Head) => Head) {
      let head = head0;
      const accepted: string[] = [];
      events.forEach((raw, index) => {
        const decision = checkOne(tenantId, raw);
        for (const w of decision.warnings) {
          const ve = violationEvent(tenantId, raw, w, "warn");
          if (ve) fold.apply(ve), (head = write(ve, head));
        }
        if (!decision.ok) throw new Refusal(index, raw, decision.violation);
        fold.apply(decision.event);
        head = write(decision.event, head);
        accepted.push(decision.event.event_id);
      });
      return { head, accepted };
    },

    /**
     * Folds and writes (with `write`) the refused batch's `policy.violation`, when the pack
     * emits one, and returns the error the batch is answered with.
     */
    refuse(tenantId: string, r: Refusal, write: (event: TUblEvent) => void): AppError {
      const ve = violationEvent(tenantId, r.raw, r.violation, "enforce");
      if (ve) {
        fold.apply(ve);
        write(ve);
      }
      const eventId = (r.raw as { event_id?: unknown } | null)?.event_id;
      return new AppError(r.violation.code as TErrorCode, r.violation.message_safe, {
        policy_id: r.violation.policy_id,
        event_index: r.index,
        ...(typeof eventId === "string" ? { event_id: eventId } : {}),
        ...(ve ? { violation_event_id: ve.event_id } : {}),
      });
    },
  };
}

type Outcome = { ok: true; result: TAppendResponse } | { ok: false; error: unknown };

/**
 * Writes one group of appends in one `BEGIN IMMEDIATE` transaction, so the whole group costs one
 * fsync. Each batch runs in its own SAVEPOINT: a refusal (or a throwing `withinCommit`) rolls
 * back that batch's rows and its fold changes only and is answered on its own, after a
 * `policy.violation` is written in its place. A storage failure (disk full, read-only, I/O)
 * fails the whole group: nothing is written, the fold and heads go back to where they were, and
 * every batch gets the same 507/503, so the next append starts clean.
 */
export function createCommitGroupWriter(deps: CommitGroupDeps) {
  const { db, store, signer, fold, heads, clock } = deps;
  const judge = createPolicyJudge(deps);
  // Transaction control prepared once: db.exec would parse these on every batch.
  const sql = (text: string) => {
    const stmt = db.prepare(text);
    return () => void stmt.run();
  };
  const begin = sql("BEGIN IMMEDIATE");
  const commit = sql("COMMIT");
  const savepoint = sql("SAVEPOINT ledger_batch");
  const releaseSavepoint = sql("RELEASE ledger_batch");
  const rollbackToSavepoint = sql("ROLLBACK TO ledger_batch");
  const rollback = sql("ROLLBACK");

  function headOf(tenantId: string): Head {
    return heads.get(tenantId) ?? { seq: 0, hash: GENESIS_HASH, frontier: [] };
  }

  /** Chains, adds to the tenant's Merkle tree and inserts one validated event; returns the new head. */
  function writeEvent(event: TUblEvent, head: Head, out: TStoredEvent[]): Head {
    const seq = head.seq + 1;
    const envelope = envelopeOf(event, seq);
    const payload = canonicalize(envelope);
    const [hash, leaf] = chainAndLeafHash(head.hash, payload);
    const tree = appendLeaf(head.frontier, head.seq, leaf);
    store.insertEventValues(
      envelope.tenant_id,
      seq,
      envelope.event_id,
      envelope.event_type,
      envelope.ts,
      envelope.conversation_id,
      envelope.job_id ?? null,
      envelope.trace_id,
      envelope.actor.entity_id,
      envelope.actor.actor_type,
      payload,
      head.hash,
      hash,
      tree.completed.length === 1 ? tree.completed[0]! : Buffer.concat(tree.completed),
    );
    // The envelope is this function's own object, already hashed: it becomes the stored event.
    envelope.integrity = { hash, prev_hash: head.hash };
    out.push(envelope as TStoredEvent);
    return { seq, hash, frontier: tree.frontier };
  }

  /** Whether the open transaction already holds rows: then a batch needs a savepoint of its own. */
  let holdsRows = false;

  function writeBatch(p: PendingAppend, out: TStoredEvent[], before: Map<string, Head | undefined>): Outcome {
    const tenantId = p.req.tenant_id;
    if (!before.has(tenantId)) before.set(tenantId, heads.get(tenantId));
    const hadHead = heads.has(tenantId);
    const head0 = headOf(tenantId);
    const mark = fold.mark();
    const batchOut: TStoredEvent[] = [];
    // The first batch to write in a transaction undoes itself by rolling the transaction back
    // and beginning it again (nothing else is in it), so it needs no savepoint: a savepoint
    // copies every page the batch touches into a statement journal, ≈ 2 µs per 1 KB event here.
    const useSavepoint = holdsRows;
    if (useSavepoint) savepoint();
    try {
      const { head, accepted } = judge.batch(tenantId, p.req.events, head0, (event, h) =>
        writeEvent(event, h, batchOut),
      );
      store.flushEvents();
      heads.set(tenantId, head);
      const result: TAppendResponse = { ok: true, accepted_event_ids: accepted, cursor: formatCursor(head.seq) };
      p.opts?.withinCommit?.(result, db);
      if (useSavepoint) releaseSavepoint();
      holdsRows = true;
      for (const e of batchOut) out.push(e);
      return { ok: true, result };
    } catch (e) {
      // Storage failures abort the whole group (SQLite may already have rolled it back).
      if (isStorageError(e)) throw e;
      store.discardEvents();
      if (useSavepoint) {
        rollbackToSavepoint();
        releaseSavepoint();
      } else {
        rollback();
        begin();
      }
      fold.rollbackTo(mark);
      if (hadHead) heads.set(tenantId, head0);
      else heads.delete(tenantId);
      if (!(e instanceof Refusal)) return { ok: false, error: e };
      return { ok: false, error: refusalError(tenantId, e, out) };
    }
  }

  /** Writes the refused batch's `policy.violation` (when the pack emits one) and builds the error. */
  function refusalError(tenantId: string, r: Refusal, out: TStoredEvent[]): AppError {
    return judge.refuse(tenantId, r, (ve) => {
      heads.set(tenantId, writeEvent(ve, headOf(tenantId), out));
      store.flushEvents();
      holdsRows = true;
    });
  }

  function checkpointTenants(events: TStoredEvent[]): void {
    const tenants = new Set(events.map((e) => e.tenant_id));
    const ts = clock.iso();
    for (const tenantId of tenants) {
      const head = headOf(tenantId);
      const claim = { tenant_id: tenantId, tenant_seq: head.seq, head_hash: head.hash };
      store.insertCheckpoint({ ...claim, signature: signer.signCheckpoint(claim), key_id: signer.keyId, ts });
    }
  }

  return function writeGroup(group: PendingAppend[]): void {
    const groupMark = fold.mark();
    // Heads of the tenants this group touches, as they were before it: a failed commit restores them.
    const headsBefore = new Map<string, Head | undefined>();
    const outcomes: Outcome[] = [];
    const committed: TStoredEvent[] = [];
    holdsRows = false;
    try {
      begin();
      for (const p of group) outcomes.push(writeBatch(p, committed, headsBefore));
      if (committed.length > 0) checkpointTenants(committed);
      commit();
    } catch (e) {
      store.discardEvents();
      if (db.inTransaction) {
        try {
          db.exec("ROLLBACK");
        } catch {
          // the connection already rolled back (SQLite does so itself on some I/O errors)
        }
      }
      fold.rollbackTo(groupMark);
      fold.release(groupMark);
      for (const [k, v] of headsBefore) v ? heads.set(k, v) : heads.delete(k);
      const error = isStorageError(e) ? toStorageError(e) : e;
      for (const p of group) p.reject(error);
      return;
    }
    fold.release(fold.mark());
    deps.onCommitted(committed);
    for (const [i, o] of outcomes.entries()) {
      if (o.ok) group[i]!.resolve(o.result);
      else group[i]!.reject(o.error);
    }
  };
}

type Envelope = Omit<TStoredEvent, "integrity"> & { integrity?: TStoredEvent["integrity"] };

/**
 * The event as stored: its own enumerable members but `integrity` and `seq`, then the assigned
 * `seq`, built with its keys already in canonical (UTF-16) order so that `canonicalize` finds
 * them sorted. Same members and values as `{ ...rest, seq }`, which cost an object rest and a
 * spread per event.
 */
export function envelopeOf(event: TUblEvent, seq: number): Envelope {
  const src: Record<string, unknown> = event;
  const keys = Object.keys(src);
  const out: Record<string, unknown> = {};
  let seqDone = false;
  // Keys in order, with "seq" slotted in: an insertion sort on a copy (about ten keys).
  const sorted: string[] = [];
  for (const k of keys) {
    if (k === "integrity" || k === "seq") continue;
    let j = sorted.length;
    sorted.push(k);
    while (j > 0 && sorted[j - 1]! > k) {
      sorted[j] = sorted[j - 1]!;
      j--;
    }
    sorted[j] = k;
  }
  for (const k of sorted) {
    if (!seqDone && k > "seq") {
      out.seq = seq;
      seqDone = true;
    }
    out[k] = src[k];
  }
  if (!seqDone) out.seq = seq;
  return out as Envelope;
}
