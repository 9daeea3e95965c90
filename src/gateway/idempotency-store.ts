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

  function begin(scope: IdemScope): IdemBegin {
    const keyHash = keyHashOf(scope);
    const key = [scope.tenantId, scope.entityId, keyHash] as const;
    const now = clock.now();
    const claim = claims.take(scope);
    const release = (succeeded = false) => {
      if (claims.end(claim, succeeded)) lightly(() => remove.run(...key, claim));
    };
    if (lightly(() => insert.run(...key, scope.requestHash, claim, now + CLAIM_MS, now).changes === 1)) {
      return { kind: "new", release };
    }
    const row = select.get(...key);
    try {
      // Gone between the two statements can only mean pruned: claim it again.
      if (!row) {
        claims.end(claim, true);
        return begin(scope);
      }
      const taken = judgeTaken(scope, row, now, claims.isDead);
      if (taken.kind === "replay") {
        claims.end(claim, true);
        return taken;
      }
      lightly(() => takeOver.run(scope.requestHash, claim, now + CLAIM_MS, now, ...key, row.claimed_by));
      return { kind: "new", release };
    } catch (e) {
      claims.end(claim, true);
      throw e;
    }
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
