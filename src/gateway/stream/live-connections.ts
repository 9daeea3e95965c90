import type { ServerResponse } from "node:http";
import { AppError } from "../../shared/errors.js";

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
 * (sign-out, rotation), or the person's roles changed. Each stream is indexed by its token, its
 * tenant and its person, so opening, counting and closing cost the same with 10 streams or
 * 10,000.
 */
export function createLiveConnections(limits: StreamLimits = DEFAULT_STREAM_LIMITS) {
  const byToken = new Map<string, Set<Held>>();
  const byEntity = new Map<string, Set<Held>>();
  const perTenant = new Map<string, number>();
  let size = 0;
  const entityKey = (tenantId: string, entityId: string) => `${tenantId}\u0000${entityId}`;
  const index = (map: Map<string, Set<Held>>, key: string, h: Held) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(h);
  };
  const unindex = (map: Map<string, Set<Held>>, key: string, h: Held) => {
    const set = map.get(key);
    if (!set?.delete(h)) return false;
    if (set.size === 0) map.delete(key);
    return true;
  };
  const forget = (h: Held) => {
    if (!unindex(byToken, h.tokenHash, h)) return;
    unindex(byEntity, entityKey(h.tenantId, h.entityId), h);
    const n = (perTenant.get(h.tenantId) ?? 1) - 1;
    if (n > 0) perTenant.set(h.tenantId, n);
    else perTenant.delete(h.tenantId);
    size--;
  };
  const end = (h: Held) => {
    forget(h);
    if (!h.res.destroyed) h.res.end();
  };
  return {
    /** Registers a stream about to open; refuses it (429) over a cap. It leaves the set when it closes. */
    open(h: Held): void {
      if ((byToken.get(h.tokenHash)?.size ?? 0) >= limits.perToken) {
        throw new AppError("RATE_LIMITED", `At most ${limits.perToken} open streams per token; close one first`, {
          retry_after_seconds: 5,
          limit: "streams_per_token",
        });
      }
      if ((perTenant.get(h.tenantId) ?? 0) >= limits.perTenant) {
        throw new AppError("RATE_LIMITED", `This workspace has ${limits.perTenant} open streams, its limit`, {
          retry_after_seconds: 5,
          limit: "streams_per_tenant",
        });
      }
      index(byToken, h.tokenHash, h);
      index(byEntity, entityKey(h.tenantId, h.entityId), h);
      perTenant.set(h.tenantId, (perTenant.get(h.tenantId) ?? 0) + 1);
      size++;
      h.res.once("close", () => forget(h));
    },
    /** Ends the streams a token opened. */
    closeToken(tokenHash: string): number {
      const hit = [...(byToken.get(tokenHash) ?? [])];
      hit.forEach(end);
      return hit.length;
    },
    /** Ends every stream of one entity (all its tokens). */
    closeEntity(tenantId: string, entityId: string): number {
      const hit = [...(byEntity.get(entityKey(tenantId, entityId)) ?? [])];
      hit.forEach(end);
      return hit.length;
    },
    /** The distinct tokens with an open stream (re-checked for revocation made elsewhere). */
    tokens(): string[] {
      return [...byToken.keys()];
    },
    size: () => size,
  };
}

export type LiveConnections = ReturnType<typeof createLiveConnections>;
