import type pg from "pg";
import type { Clock } from "../../shared/clock.js";
import { isSqliteDb, type Db } from "../../shared/db.js";
import {
  CLAIM_MS,
  claimLost,
  createClaims,
  type IdemBegin,
  type IdempotencyStore,
  type IdemRow,
  type IdemScope,
  type StoredResponse,
  judgeTaken,
  keyHashOf,
  sealedFor,
} from "../idempotency.js";

const KEY = "tenant_id = $1 AND entity_id = $2 AND key_hash = $3";

/**
 * Idempotency-Keys in `gateway.idempotency_keys`, shared by every process on the database: the
 * claim is a row, so a retry that reaches another process sees it running (or done). Times come
 * from the injected clock, as on SQLite. `record` writes through the append's client.
 */
export function createPgIdempotencyStore(deps: {
  pool: pg.Pool;
  clock: Clock;
  retentionMs?: number;
}): IdempotencyStore<pg.ClientBase | Db, Promise<void>> {
  const { pool, clock } = deps;
  const retentionMs = deps.retentionMs ?? 24 * 3600_000;
  const claims = createClaims();
  /** Records of requests that wrote no events (their `tx` is the gateway's SQLite file), still being written. */
  const unbound = new WeakMap<IdemScope, Promise<void>>();

  async function begin(scope: IdemScope): Promise<IdemBegin> {
    const key = [scope.tenantId, scope.entityId, keyHashOf(scope)];
    const now = clock.now();
    const claim = claims.take(scope);
    const release = async (succeeded = false) => {
      await unbound.get(scope);
      if (!claims.end(claim, succeeded)) return;
      await pool.query(`DELETE FROM gateway.idempotency_keys WHERE ${KEY} AND state = 'running' AND claimed_by = $4`, [
        ...key,
        claim,
      ]);
    };
    try {
      const inserted = await pool.query(
        `INSERT INTO gateway.idempotency_keys (tenant_id, entity_id, key_hash, request_hash, state, claimed_by, claim_expires, created_at)
         VALUES ($1, $2, $3, $4, 'running', $5, $6, $7) ON CONFLICT DO NOTHING`,
        [...key, scope.requestHash, claim, now + CLAIM_MS, now],
      );
      if (inserted.rowCount === 1) return { kind: "new", release };
      const { rows } = await pool.query<IdemRow>(
        `SELECT request_hash, state, claimed_by, claim_expires::float8 AS claim_expires, status, sealed_response
         FROM gateway.idempotency_keys WHERE ${KEY}`,
        key,
      );
      const row = rows[0];
      const taken = row ? judgeTaken(scope, row, now, claims.isDead) : undefined;
      if (taken?.kind === "replay") {
        claims.end(claim, true);
        return taken;
      }
      if (row) {
        // Only the claim that was read is taken over: two processes racing for it, one wins.
        const moved = await pool.query(
          `UPDATE gateway.idempotency_keys SET request_hash = $4, claimed_by = $5, claim_expires = $6, created_at = $7
           WHERE ${KEY} AND state = 'running' AND claimed_by = $8`,
          [...key, scope.requestHash, claim, now + CLAIM_MS, now, row.claimed_by],
        );
        if (moved.rowCount === 1) return { kind: "new", release };
      }
    } catch (e) {
      claims.end(claim, true);
      throw e;
    }
    // The row changed under us (pruned, finished or claimed by another): read it again.
    claims.end(claim, true);
    return begin(scope);
  }

  async function recordOn(q: pg.ClientBase | pg.Pool, scope: IdemScope, response: StoredResponse): Promise<void> {
    const { keyHash, sealed } = sealedFor(scope, response);
    const claim = claims.of(scope);
    const res = await q.query(
      `UPDATE gateway.idempotency_keys SET state = 'done', status = $4, sealed_response = $5, claimed_by = NULL, claim_expires = NULL
       WHERE ${KEY} AND state = 'running' AND claimed_by = $6`,
      [scope.tenantId, scope.entityId, keyHash, response.status, sealed, claim],
    );
    if (res.rowCount !== 1) throw claimLost();
    claims.recorded(claim);
  }

  return {
    begin,
    record(scope, response, tx) {
      if (!isSqliteDb(tx)) return recordOn(tx, scope, response);
      // A request that wrote no events (sign-out, settings): its record is written on its own, and
      // the claim is released only after it. A failed write leaves the claim to be released.
      const written = recordOn(pool, scope, response).catch(() => {});
      unbound.set(scope, written);
      return written;
    },
    async prune() {
      const res = await pool.query("DELETE FROM gateway.idempotency_keys WHERE created_at < $1", [
        clock.now() - retentionMs,
      ]);
      return res.rowCount ?? 0;
    },
  };
}
