import type pg from "pg";
import type { Clock } from "../../shared/clock.js";
import { createRateLimiter, type RateLimitConfig, type SharedRateLimits } from "../http/rate-limit.js";

/** The bucket refilled up to now ($4, epoch ms), at most the capacity ($2). */
const REFILLED = "least($2::float8, b.tokens + greatest(0, $4::bigint - b.at_ms) / 1000.0 * $5::float8)";

/**
 * One statement per take: the bucket is created full (less this take) or refilled and taken
 * from, only when enough is left; `ok` says which. Two processes taking at once queue on the row.
 */
const TAKE = `INSERT INTO gateway.rate_buckets AS b (key, tokens, at_ms, ok) VALUES ($1, $2::float8 - $3::float8, $4, true)
  ON CONFLICT (key) DO UPDATE SET
    tokens = CASE WHEN ${REFILLED} >= $3::float8 THEN ${REFILLED} - $3::float8 ELSE ${REFILLED} END,
    at_ms = greatest(b.at_ms, $4::bigint),
    ok = ${REFILLED} >= $3::float8
  RETURNING tokens, ok`;

/**
 * Rate limits shared by every process on the database (`gateway.rate_buckets`, UNLOGGED). A take
 * meets this process's own bucket first: empty there, it is refused at once; else the shared
 * bucket decides, and what it says is left lowers the local one, so a key over its budget is
 * soon refused here without a round trip. When the database cannot answer, the local bucket alone
 * decides (writes then fail on the database anyway).
 */
export function createPgRateLimits(deps: {
  pool: pg.Pool;
  clock: Clock;
  onError: (err: unknown) => void;
}): SharedRateLimits {
  const { pool, clock } = deps;
  return {
    limiter(name, cfg: RateLimitConfig) {
      const local = createRateLimiter(clock, cfg);
      // Keys may hold NUL (tenant and entity), which a text column refuses: escaped, they stay distinct.
      const prefix = `${name}/`;
      const fullAfterMs = (cfg.capacity / cfg.refillPerSecond) * 1000;
      let lastPrune = clock.now();
      return {
        async take(key, cost = 1) {
          const wait = local.take(key, cost);
          if (wait > 0) return wait;
          const need = Math.min(Math.max(1, cost), cfg.capacity);
          const now = clock.now();
          if (now - lastPrune > 60_000) {
            lastPrune = now;
            // A bucket idle long enough to be full is the same as none.
            pool
              .query("DELETE FROM gateway.rate_buckets WHERE starts_with(key, $1) AND at_ms < $2", [
                prefix,
                now - fullAfterMs,
              ])
              .catch(deps.onError);
          }
          let row: { tokens: number; ok: boolean } | undefined;
          try {
            const res = await pool.query<{ tokens: number; ok: boolean }>(TAKE, [
              prefix + encodeURIComponent(key),
              cfg.capacity,
              need,
              now,
              cfg.refillPerSecond,
            ]);
            row = res.rows[0];
          } catch (err) {
            deps.onError(err);
            return 0;
          }
          if (!row) return 0;
          local.lower(key, row.tokens);
          return row.ok ? 0 : Math.max(1, Math.ceil((need - row.tokens) / cfg.refillPerSecond));
        },
      };
    },
  };
}
