import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../shared/db.js";
import type { Clock } from "../../shared/clock.js";

export interface Principal {
  tenantId: string;
  entityId: string;
}

/** How a session began and on what; both optional (API tokens and older sessions have neither). */
interface SessionMeta {
  /** A short label such as "Firefox on Android", from the User-Agent. */
  device?: string | undefined;
  /** workspace, invite, device_link, email_link, admin, demo. */
  via?: string | undefined;
}

/** One session as its owner sees it. */
interface SessionRow {
  session_id: string;
  token_hash: string;
  device_label: string | null;
  signed_in_via: string | null;
  created_at: string;
  last_seen_at: string | null;
}

export interface TokenStore {
  /** Issues a new opaque token for one entity in one tenant; returns the only copy of it. */
  issue(p: Principal, meta?: SessionMeta): string;
  /** Like `issue`, also naming the session the token is. */
  issueSession(p: Principal, meta?: SessionMeta): { token: string; sessionId: string };
  /** The entity's live sessions (not revoked), newest first. */
  sessions(p: Principal): SessionRow[];
  /** The live session with that id when it is the entity's own, else null. */
  sessionById(p: Principal, sessionId: string): SessionRow | null;
  /** Records that a token was used now; written at most once a minute per token. */
  touch(tokenHash: string): void;
  /** Names the device of a session that has no label yet (a token first exchanged for the cookie there). */
  labelDevice(tokenHash: string, device: string): void;
  /** Revokes one session by its token hash (ending a session from another device). */
  revokeHash(tokenHash: string): boolean;
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

function newSessionId(): string {
  return `ses_${randomBytes(12).toString("hex")}`;
}

/** How often a session's "last seen" is written: a write per request would cost more than the request. */
const TOUCH_EVERY_MS = 60_000;

export function createTokenStore(deps: { db: Db; clock: Clock }): TokenStore {
  const { db, clock } = deps;
  const insert = db.prepare(
    "INSERT INTO gateway_tokens (token_hash, tenant_id, entity_id, created_at, session_id, device_label, signed_in_via, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const sessionCols = "session_id, token_hash, device_label, signed_in_via, created_at, last_seen_at";
  const listSessions = db.prepare<[string, string], SessionRow>(
    `SELECT ${sessionCols} FROM gateway_tokens WHERE tenant_id = ? AND entity_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, session_id`,
  );
  const oneSession = db.prepare<[string, string, string], SessionRow>(
    `SELECT ${sessionCols} FROM gateway_tokens WHERE tenant_id = ? AND entity_id = ? AND session_id = ? AND revoked_at IS NULL`,
  );
  const touchOne = db.prepare("UPDATE gateway_tokens SET last_seen_at = ? WHERE token_hash = ?");
  const touched = new Map<string, number>();
  const label = db.prepare("UPDATE gateway_tokens SET device_label = ? WHERE token_hash = ? AND device_label IS NULL");
  const select = db.prepare<[string], { tenant_id: string; entity_id: string; revoked_at: string | null }>(
    "SELECT tenant_id, entity_id, revoked_at FROM gateway_tokens WHERE token_hash = ?",
  );
  const revokeOne = db.prepare("UPDATE gateway_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL");
  const revokeEntity = db.prepare(
    "UPDATE gateway_tokens SET revoked_at = ? WHERE tenant_id = ? AND entity_id = ? AND revoked_at IS NULL",
  );
  // Hot path: every request resolves its token. A small cache keyed by hash avoids a query per
  // request; revocation clears it, so a revoked token stops working at once.
  const cache = new Map<string, Principal>();
  const listeners: Array<(r: { tokenHash: string } | { tenantId: string; entityId: string }) => void> = [];

  const store: TokenStore = {
    issue(p, meta) {
      return store.issueSession(p, meta).token;
    },
    issueSession(p, meta) {
      const token = newSecret("llt");
      const sessionId = newSessionId();
      const now = clock.iso();
      insert.run(
        hashSecret(token),
        p.tenantId,
        p.entityId,
        now,
        sessionId,
        meta?.device ?? null,
        meta?.via ?? null,
        now,
      );
      return { token, sessionId };
    },
    sessions: (p) => listSessions.all(p.tenantId, p.entityId),
    sessionById: (p, sessionId) => oneSession.get(p.tenantId, p.entityId, sessionId) ?? null,
    touch(tokenHash) {
      const now = clock.now();
      if (now - (touched.get(tokenHash) ?? 0) < TOUCH_EVERY_MS) return;
      if (touched.size > 10_000) touched.clear();
      touched.set(tokenHash, now);
      touchOne.run(new Date(now).toISOString(), tokenHash);
    },
    labelDevice(tokenHash, device) {
      label.run(device, tokenHash);
    },
    revokeHash(tokenHash) {
      cache.delete(tokenHash);
      touched.delete(tokenHash);
      const done = revokeOne.run(clock.iso(), tokenHash).changes > 0;
      for (const l of listeners) l({ tokenHash });
      return done;
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
      return store.revokeHash(hashSecret(token));
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
  return store;
}
