import { createHash, randomBytes } from "node:crypto";
import type { Clock } from "../../shared/clock.js";
import type { AuthRows } from "./auth-rows.js";

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
  /** Like `issue`, also naming the session the token is (a given `sessionId`, else a new one). */
  issueSession(p: Principal, meta?: SessionMeta & { sessionId?: string }): { token: string; sessionId: string };
  /** The entity's live sessions (not revoked), newest first. */
  sessions(p: Principal): Promise<SessionRow[]>;
  /** The live session with that id when it is the entity's own, else null. */
  sessionById(p: Principal, sessionId: string): Promise<SessionRow | null>;
  /** The tenant's live tokens, newest first (at most `limit`). */
  live(tenantId: string, limit: number): Promise<LiveToken[]>;
  /** Records that a token was used now; written at most once a minute per token. */
  touch(tokenHash: string): void;
  /** Names the device of a session that has no label yet (a token first exchanged for the cookie there). */
  labelDevice(tokenHash: string, device: string): void;
  /** Revokes one session by its token hash (ending a session from another device). */
  revokeHash(tokenHash: string): void;
  /** The principal a token stands for, or null when unknown or revoked. */
  resolve(token: string): Promise<Principal | null>;
  /** Revokes one token; later requests with it are UNAUTHORIZED. */
  revoke(token: string): void;
  /** Revokes every token of an entity. */
  revokeAll(p: Principal): void;
  /**
   * Of these token hashes, those unknown or revoked in the database now, whoever revoked them
   * (the CLI, another process); their cached principals are forgotten.
   */
  revokedAmong(tokenHashes: readonly string[]): Promise<string[]>;
  /** Called after each revocation made through this store. */
  onRevoke(listener: (r: { tokenHash: string } | { tenantId: string; entityId: string }) => void): void;
}

/** A live token as the admin's Tokens screen lists it. */
export interface LiveToken {
  token_hash: string;
  entity_id: string;
  created_at: string;
  last_seen_at: string | null;
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

export function newSessionId(): string {
  return `ses_${randomBytes(12).toString("hex")}`;
}

/** How often a session's "last seen" is written: a write per request would cost more than the request. */
const TOUCH_EVERY_MS = 60_000;

/**
 * How long a resolved token is trusted without asking the database again when other processes
 * share it: a token revoked there is refused here within this time (real time, not the clock's).
 */
const SHARED_CACHE_MS = 1000;

const SESSION_COLS = "session_id, token_hash, device_label, signed_in_via, created_at, last_seen_at";

/**
 * Tokens in the gateway's rows (see AuthRows): the SQLite file, or PostgreSQL shared by every
 * process. The issuing process knows a new token at once; others read it on first use. A
 * revocation made here is immediate here; elsewhere, when other processes share the rows, the
 * cached principal expires within a second and is read again.
 */
export function createTokenStore(deps: { rows: AuthRows; clock: Clock }): TokenStore {
  const { rows, clock } = deps;
  const cacheMs = rows.shared ? SHARED_CACHE_MS : Number.POSITIVE_INFINITY;
  const touched = new Map<string, number>();
  // Hot path: every request resolves its token. A small cache keyed by hash avoids a query per
  // request; revocation clears it, so a revoked token stops working at once.
  const cache = new Map<string, { p: Principal; at: number }>();
  const remember = (h: string, p: Principal) => {
    if (cache.size > 10_000) cache.clear();
    cache.set(h, { p, at: performance.now() });
  };
  const listeners: Array<(r: { tokenHash: string } | { tenantId: string; entityId: string }) => void> = [];

  const store: TokenStore = {
    issue(p, meta) {
      return store.issueSession(p, meta).token;
    },
    issueSession(p, meta) {
      const token = newSecret("llt");
      const sessionId = meta?.sessionId ?? newSessionId();
      const now = clock.iso();
      const h = hashSecret(token);
      rows.write(
        "INSERT INTO gateway_tokens (token_hash, tenant_id, entity_id, created_at, session_id, device_label, signed_in_via, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [h, p.tenantId, p.entityId, now, sessionId, meta?.device ?? null, meta?.via ?? null, now],
      );
      if (rows.shared) remember(h, { tenantId: p.tenantId, entityId: p.entityId });
      return { token, sessionId };
    },
    sessions: (p) =>
      rows.all<SessionRow>(
        `SELECT ${SESSION_COLS} FROM gateway_tokens WHERE tenant_id = ? AND entity_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, session_id`,
        [p.tenantId, p.entityId],
      ),
    sessionById: async (p, sessionId) =>
      (await rows.one<SessionRow>(
        `SELECT ${SESSION_COLS} FROM gateway_tokens WHERE tenant_id = ? AND entity_id = ? AND session_id = ? AND revoked_at IS NULL`,
        [p.tenantId, p.entityId, sessionId],
      )) ?? null,
    live: (tenantId, limit) =>
      rows.all<LiveToken>(
        "SELECT token_hash, entity_id, created_at, last_seen_at FROM gateway_tokens WHERE tenant_id = ? AND revoked_at IS NULL ORDER BY created_at DESC LIMIT ?",
        [tenantId, limit],
      ),
    touch(tokenHash) {
      const now = clock.now();
      if (now - (touched.get(tokenHash) ?? 0) < TOUCH_EVERY_MS) return;
      if (touched.size > 10_000) touched.clear();
      touched.set(tokenHash, now);
      rows.write("UPDATE gateway_tokens SET last_seen_at = ? WHERE token_hash = ?", [
        new Date(now).toISOString(),
        tokenHash,
      ]);
    },
    labelDevice(tokenHash, device) {
      rows.write("UPDATE gateway_tokens SET device_label = ? WHERE token_hash = ? AND device_label IS NULL", [
        device,
        tokenHash,
      ]);
    },
    revokeHash(tokenHash) {
      cache.delete(tokenHash);
      touched.delete(tokenHash);
      rows.write("UPDATE gateway_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL", [
        clock.iso(),
        tokenHash,
      ]);
      for (const l of listeners) l({ tokenHash });
    },
    async resolve(token) {
      if (!token || token.length > 512) return null;
      const h = hashSecret(token);
      const hit = cache.get(h);
      if (hit && performance.now() - hit.at < cacheMs) return hit.p;
      const row = await rows.one<{ tenant_id: string; entity_id: string; revoked_at: string | null }>(
        "SELECT tenant_id, entity_id, revoked_at FROM gateway_tokens WHERE token_hash = ?",
        [h],
      );
      if (!row || row.revoked_at) {
        cache.delete(h);
        return null;
      }
      const p = { tenantId: row.tenant_id, entityId: row.entity_id };
      remember(h, p);
      return p;
    },
    revoke(token) {
      store.revokeHash(hashSecret(token));
    },
    revokeAll(p) {
      cache.clear();
      rows.write(
        "UPDATE gateway_tokens SET revoked_at = ? WHERE tenant_id = ? AND entity_id = ? AND revoked_at IS NULL",
        [clock.iso(), p.tenantId, p.entityId],
      );
      for (const l of listeners) l({ tenantId: p.tenantId, entityId: p.entityId });
    },
    async revokedAmong(tokenHashes) {
      if (tokenHashes.length === 0) return [];
      const alive = new Set<string>();
      // In slices, to keep each statement's parameter list short.
      for (let i = 0; i < tokenHashes.length; i += 500) {
        const part = tokenHashes.slice(i, i + 500);
        const found = await rows.all<{ token_hash: string }>(
          `SELECT token_hash FROM gateway_tokens WHERE revoked_at IS NULL AND token_hash IN (${part.map(() => "?").join(", ")})`,
          part,
        );
        for (const r of found) alive.add(r.token_hash);
      }
      const gone = tokenHashes.filter((h) => !alive.has(h));
      for (const h of gone) cache.delete(h);
      return gone;
    },
    onRevoke(listener) {
      listeners.push(listener);
    },
  };
  return store;
}
