import type { Clock } from "../../shared/clock.js";

export interface RateLimitConfig {
  /** Burst size: how many writes an entity may make at once. */
  capacity: number;
  /** Sustained writes per second per entity. */
  refillPerSecond: number;
}

/** Generous: a person typing and clicking never meets it; a script flooding a tenant does. */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = { capacity: 120, refillPerSecond: 20 };

export interface RateLimiter {
  /** Takes `cost` tokens (default 1, at most the capacity); answers 0 when allowed, else the seconds to wait. */
  take(key: string, cost?: number): number | Promise<number>;
}

/** A bucket per key in this process's memory. */
export interface LocalRateLimiter extends RateLimiter {
  take(key: string, cost?: number): number;
  /** Lowers a bucket to what the shared bucket says is left (never raises it). */
  lower(key: string, tokens: number): void;
}

/**
 * Buckets shared by every process on a database (PostgreSQL): each limiter filters on its own
 * local buckets first, so a key already empty here is refused without asking the database.
 */
export interface SharedRateLimits {
  /** A limiter whose keys are distinct from every other limiter's by `name`. */
  limiter(name: string, cfg: RateLimitConfig): RateLimiter;
}

/** A whole workspace may write this many times what one token may. */
export const TENANT_RATE_FACTOR = 10;

/** A token bucket per key (tenant + entity). Buckets idle long enough to be full are dropped. */
export function createRateLimiter(clock: Clock, cfg: RateLimitConfig = DEFAULT_RATE_LIMIT): LocalRateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const fullAfterMs = (cfg.capacity / cfg.refillPerSecond) * 1000;
  let lastSweep = clock.now();
  return {
    take(key, cost = 1) {
      const need = Math.min(Math.max(1, cost), cfg.capacity);
      const now = clock.now();
      if (now - lastSweep > 60_000) {
        for (const [k, b] of buckets) if (now - b.at > fullAfterMs) buckets.delete(k);
        lastSweep = now;
      }
      const b = buckets.get(key) ?? { tokens: cfg.capacity, at: now };
      b.tokens = Math.min(cfg.capacity, b.tokens + ((now - b.at) / 1000) * cfg.refillPerSecond);
      b.at = now;
      buckets.set(key, b);
      if (b.tokens >= need) {
        b.tokens -= need;
        return 0;
      }
      return Math.max(1, Math.ceil((need - b.tokens) / cfg.refillPerSecond));
    },
    lower(key, tokens) {
      const b = buckets.get(key);
      if (b && tokens < b.tokens) b.tokens = Math.max(0, tokens);
    },
  };
}
