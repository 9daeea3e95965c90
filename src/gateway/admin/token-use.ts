import { hashSecret, type TokenStore } from "../auth/token-store.js";
import type { Clock } from "../../shared/clock.js";

/**
 * When each token was last used, kept in memory (written at most once a minute per token, so a
 * busy session costs a map lookup per request). It starts empty when the server starts: the
 * token table has no such column, and sessions that record it are their own module.
 */
export interface TokenUse {
  lastUsed(tokenHash: string): string | null;
}

const EVERY_MS = 60_000;
const MAX_TRACKED = 50_000;

/** `store` with each successful resolve noted; everything else passes through. */
export function trackTokenUse(store: TokenStore, clock: Clock): { tokens: TokenStore; use: TokenUse } {
  const seen = new Map<string, number>();
  const tokens: TokenStore = {
    ...store,
    resolve(token) {
      const p = store.resolve(token);
      if (p) {
        const h = hashSecret(token);
        const now = clock.now();
        if (now - (seen.get(h) ?? 0) >= EVERY_MS) {
          if (seen.size >= MAX_TRACKED) seen.clear();
          seen.set(h, now);
        }
      }
      return p;
    },
  };
  return {
    tokens,
    use: {
      lastUsed(tokenHash) {
        const ms = seen.get(tokenHash);
        return ms === undefined ? null : new Date(ms).toISOString();
      },
    },
  };
}
