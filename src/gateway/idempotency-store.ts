import type { Clock } from "../shared/clock.js";
import type { Db } from "../shared/db.js";
import {
  CLAIM_MS,
  claimLost,
  createClaims,
  type IdemBegin,
  type IdempotencyStore,
  type IdemRow,
  type IdemScope,
  judgeTaken,
  keyHashOf,
  sealedFor,
} from "./idempotency.js";

const KEY = "tenant_id = ? AND entity_id = ? AND key_hash = ?";

/**
 * Idempotency-Keys in the gateway's SQLite table. Claims and their release are written with
 * `synchronous = NORMAL`: a claim need not survive power loss (after a crash nothing is running),
 * and the next full commit flushes it anyway, so a write request pays no extra fsync for it.
 * `begin` answers in the next event-loop turn, with the claims of this one.
 */
export function createIdempotencyStore(deps: {
  db: Db;
  clock: Clock;
  retentionMs?: number;
  /**
   * Default true: one process owns a SQLite database (logline.pid), so a claim still running
   * when the store starts was left by a process that stopped, and is dropped: a retry runs at
   * once instead of waiting for it to expire. False where several stores share one database.
   */
  dropStaleClaims?: boolean;
}): IdempotencyStore<Db, void> {
  const { db, clock } = deps;
  const retentionMs = deps.retentionMs ?? 24 * 3600_000;
  const claims = createClaims();
  if (deps.dropStaleClaims !== false) db.prepare("DELETE FROM gateway_idempotency_keys WHERE state = 'running'").run();
  const insert = db.prepare(
    "INSERT INTO gateway_idempotency_keys (tenant_id, entity_id, key_hash, request_hash, state, claimed_by, claim_expires, created_at) VALUES (?, ?, ?, ?, 'running', ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const select = db.prepare<[string, string, string], IdemRow>(
    `SELECT request_hash, state, claimed_by, claim_expires, status, sealed_response FROM gateway_idempotency_keys WHERE ${KEY}`,
  );
  const takeOver = db.prepare(
    `UPDATE gateway_idempotency_keys SET request_hash = ?, claimed_by = ?, claim_expires = ?, created_at = ? WHERE ${KEY} AND state = 'running' AND claimed_by IS ?`,
  );
  const done = db.prepare(
    `UPDATE gateway_idempotency_keys SET state = 'done', status = ?, sealed_response = ?, claimed_by = NULL, claim_expires = NULL WHERE ${KEY} AND state = 'running' AND claimed_by = ?`,
  );
  const remove = db.prepare(
    `DELETE FROM gateway_idempotency_keys WHERE ${KEY} AND state = 'running' AND claimed_by = ?`,
  );
  const prune = db.prepare("DELETE FROM gateway_idempotency_keys WHERE created_at < ?");
  const syncLevel = db.prepare("PRAGMA synchronous").pluck();
  const setSync = (level: number) => db.prepare(`PRAGMA synchronous = ${level}`);
  const normal = setSync(1);
  const levels = new Map<number, ReturnType<typeof setSync>>();

  /** Runs a small write that need not be durable without waiting for the disk (see above). */
  function lightly<T>(write: () => T): T {
    const level = syncLevel.get() as number;
    if (level <= 1 || db.inTransaction) return write();
    normal.run();
    try {
      return write();
    } finally {
      let restore = levels.get(level);
      if (!restore) levels.set(level, (restore = setSync(level)));
      restore.run();
    }
  }

  type Outcome = { ok: true; value: IdemBegin } | { ok: false; error: unknown };

  /** Claims one key inside the open transaction; a refusal is an outcome, a storage failure throws. */
  function claimOne(scope: IdemScope, taken: string[]): Outcome {
    const keyHash = keyHashOf(scope);
    const key = [scope.tenantId, scope.entityId, keyHash] as const;
    const now = clock.now();
    const claim = claims.take(scope);
    taken.push(claim);
    const release = (succeeded = false) => {
      if (claims.end(claim, succeeded)) lightly(() => remove.run(...key, claim));
    };
    if (insert.run(...key, scope.requestHash, claim, now + CLAIM_MS, now).changes === 1) {
      return { ok: true, value: { kind: "new", release } };
    }
    // The insert found the row, and nothing else writes between the two statements.
    const row = select.get(...key)!;
    let judged: ReturnType<typeof judgeTaken>;
    try {
      judged = judgeTaken(scope, row, now, claims.isDead);
    } catch (error) {
      claims.end(claim, true);
      return { ok: false, error };
    }
    if (judged.kind === "replay") {
      claims.end(claim, true);
      return { ok: true, value: judged };
    }
    takeOver.run(scope.requestHash, claim, now + CLAIM_MS, now, ...key, row.claimed_by);
    return { ok: true, value: { kind: "new", release } };
  }

  // The claims of one event-loop turn are written in one transaction, as the ledger groups its
  // appends: 64 requests in flight cost one commit, not 64.
  let queue: Array<{ scope: IdemScope; resolve(v: IdemBegin): void; reject(e: unknown): void }> = [];
  const claimAll = db.transaction((batch: typeof queue, taken: string[]) => batch.map((q) => claimOne(q.scope, taken)));

  function flush(): void {
    const batch = queue;
    queue = [];
    const taken: string[] = [];
    let outcomes: Outcome[];
    try {
      outcomes = lightly(() => claimAll(batch, taken));
    } catch (e) {
      // Nothing was claimed (a full disk, say): every request of the turn gets the failure.
      for (const claim of taken) claims.end(claim, true);
      for (const q of batch) q.reject(e);
      return;
    }
    batch.forEach((q, i) => {
      const o = outcomes[i]!;
      if (o.ok) q.resolve(o.value);
      else q.reject(o.error);
    });
  }

  function begin(scope: IdemScope): Promise<IdemBegin> {
    return new Promise((resolve, reject) => {
      queue.push({ scope, resolve, reject });
      if (queue.length === 1) setImmediate(flush);
    });
  }

  return {
    begin,
    record(scope, response, tx) {
      const { keyHash, sealed } = sealedFor(scope, response);
      const claim = claims.of(scope);
      const stmt = tx === db ? done : tx.prepare(done.source);
      if (stmt.run(response.status, sealed, scope.tenantId, scope.entityId, keyHash, claim).changes !== 1) {
        throw claimLost();
      }
      claims.recorded(claim);
    },
    prune() {
      return prune.run(clock.now() - retentionMs).changes;
    },
  };
}
