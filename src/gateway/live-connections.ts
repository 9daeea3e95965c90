import type { ServerResponse } from "node:http";
import { AppError } from "../shared/errors.js";

/** Caps on long-lived streams (the Messenger's and the ledger's SSE). */
export interface StreamLimits {
  /** Concurrent streams one token may hold. */
  perToken: number;
  /** Concurrent streams one tenant may hold. */
  perTenant: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { perToken: 20, perTenant: 5_000 };

interface Held {
  tokenHash: string;
  tenantId: string;
  entityId: string;
  res: ServerResponse;
}

/**
 * Every open stream, by the token that opened it. Streams are counted against the caps when
 * they open (429 beyond), and ended the moment what they depend on goes: the token revoked
 * (sign-out, rotation), or the person's roles changed.
 */
export function createLiveConnections(limits: StreamLimits = DEFAULT_STREAM_LIMITS) {
  const held = new Set<Held>();
  const count = (pred: (h: Held) => boolean) => {
    let n = 0;
    for (const h of held) if (pred(h)) n++;
    return n;
  };
  const end = (h: Held) => {
    held.delete(h);
    if (!h.res.destroyed) h.res.end();
  };
  return {
    /** Registers a stream about to open; refuses it (429) over a cap. It leaves the set when it closes. */
    open(h: Held): void {
      if (count((x) => x.tokenHash === h.tokenHash) >= limits.perToken) {
        throw new AppError("RATE_LIMITED", `At most ${limits.perToken} open streams per token; close one first`, {
          retry_after_seconds: 5,
          limit: "streams_per_token",
        });
      }
      if (count((x) => x.tenantId === h.tenantId) >= limits.perTenant) {
        throw new AppError("RATE_LIMITED", `This workspace has ${limits.perTenant} open streams, its limit`, {
          retry_after_seconds: 5,
          limit: "streams_per_tenant",
        });
      }
      held.add(h);
      h.res.once("close", () => held.delete(h));
    },
    /** Ends the streams a token opened. */
    closeToken(tokenHash: string): number {
      const hit = [...held].filter((h) => h.tokenHash === tokenHash);
      hit.forEach(end);
      return hit.length;
    },
    /** Ends every stream of one entity (all its tokens). */
    closeEntity(tenantId: string, entityId: string): number {
      const hit = [...held].filter((h) => h.tenantId === tenantId && h.entityId === entityId);
      hit.forEach(end);
      return hit.length;
    },
    /** The distinct tokens with an open stream (re-checked for revocation made elsewhere). */
    tokens(): string[] {
      return [...new Set([...held].map((h) => h.tokenHash))];
    },
    size: () => held.size,
  };
}

export type LiveConnections = ReturnType<typeof createLiveConnections>;
