import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../shared/db.js";
import type { Clock } from "../../shared/clock.js";

export interface Principal {
  tenantId: string;
  entityId: string;
}

export interface TokenStore {
  /** Issues a new opaque token for one entity in one tenant; returns the only copy of it. */
  issue(p: Principal): string;
  /** The principal a token stands for, or null when unknown or revoked. */
  resolve(token: string): Principal | null;
  /** Revokes one token; later requests with it are UNAUTHORIZED. */
  revoke(token: string): boolean;
  /** Revokes every token of an entity. */
  revokeAll(p: Principal): number;
  /** True when the token (by hash) is unknown or revoked in the database now, whoever revoked it (the CLI too). */
  isRevoked(tokenHash: string): boolean;
  /** Called after each revocation made through this store. */
  onRevoke(listener: (r: { tokenHash: string } | { tenantId: string; entityId: string }) => void): void;
}

/**
 * Tokens are 32 random bytes, so a fast SHA-256 is enough to store them: there is nothing to
 * brute-force, unlike a password, and every request pays for the lookup.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}

export function createTokenStore(deps: { db: Db; clock: Clock }): TokenStore {
  const { db, clock } = deps;
  const insert = db.prepare("INSERT INTO gateway_tokens (token_hash, tenant_id, entity_id, created_at) VALUES (?, ?, ?, ?)");
  const select = db.prepare<[string], { tenant_id: string; entity_id: string; revoked_at: string | null }>(
    "SELECT tenant_id, entity_id, revoked_at FROM gateway_tokens WHERE token_hash = ?",
  );
  const revokeOne = db.prepare("UPDATE gateway_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL");
  const revokeEntity = db.prepare("UPDATE gateway_tokens SET revoked_at = ? WHERE tenant_id = ? AND entity_id = ? AND revoked_at IS NULL");
  // Hot path: every request resolves its token. A small cache keyed by hash avoids a query per
  // request; revocation clears it, so a revoked token stops working at once.
  const cache = new Map<string, Principal>();
  const listeners: Array<(r: { tokenHash: string } | { tenantId: string; entityId: string }) => void> = [];

  return {
    issue(p) {
      const token = newSecret("llt");
      insert.run(hashSecret(token), p.tenantId, p.entityId, clock.iso());
      return token;
    },
    resolve(token) {
      if (!token || token.length > 512) return null;
      const h = hashSecret(token);
      const hit = cache.get(h);
      if (hit) return hit;
      const row = select.get(h);
      if (!row || row.revoked_at) return null;
      const p = { tenantId: row.tenant_id, entityId: row.entity_id };
      if (cache.size > 10_000) cache.clear();
      cache.set(h, p);
      return p;
    },
    revoke(token) {
      const h = hashSecret(token);
      cache.delete(h);
      const done = revokeOne.run(clock.iso(), h).changes > 0;
      for (const l of listeners) l({ tokenHash: h });
      return done;
    },
    revokeAll(p) {
      cache.clear();
      const n = revokeEntity.run(clock.iso(), p.tenantId, p.entityId).changes;
      for (const l of listeners) l({ tenantId: p.tenantId, entityId: p.entityId });
      return n;
    },
    isRevoked(tokenHash) {
      const row = select.get(tokenHash);
      if (row && !row.revoked_at) return false;
      cache.delete(tokenHash);
      return true;
    },
    onRevoke(listener) {
      listeners.push(listener);
    },
  };
}
