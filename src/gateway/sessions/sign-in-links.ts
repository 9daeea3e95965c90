import type { Clock } from "../../shared/clock.js";
import { AppError } from "../../shared/errors.js";
import type { AuthRows } from "../auth/auth-rows.js";
import { hashSecret, newSecret, type Principal } from "../auth/token-store.js";

export type LinkPurpose = "device_link" | "email_link";

interface LinkRow {
  tenant_id: string;
  entity_id: string;
  purpose: LinkPurpose;
  expires_at: string;
  used_at: string | null;
}

export interface SignInLinks {
  /** A new one-time code for the person; only its hash is stored. */
  create(p: Principal, purpose: LinkPurpose): { code: string; expiresAt: string };
  /** Who a code would sign in, or the refusal (unknown, used, expired), without using it. */
  check(code: string): Promise<LinkRow & { hash: string }>;
  /**
   * Marks the code used by `sessionId`, before that session is made. The UPDATE's WHERE makes a
   * second, concurrent use fail (on any process), so one code makes one session at most.
   */
  spend(hash: string, sessionId: string): Promise<void>;
}

/**
 * One-time sign-in links: short-lived (linkTtlMs), single use, bound to one person. Refusals
 * name why (unknown, used, expired) so the page can say so; a code is 256 random bits, so
 * telling them apart leaks nothing worth guessing.
 */
export function createSignInLinks(deps: { rows: AuthRows; clock: Clock; linkTtlMs: number }): SignInLinks {
  const { rows, clock } = deps;
  let lastPrune = 0;
  return {
    create(p, purpose) {
      const now = clock.now();
      // Expired links are kept a day, so a late click still hears "expired" rather than "unknown".
      if (now - lastPrune > 3_600_000) {
        rows.write("DELETE FROM gateway_sign_in_links WHERE expires_at < ?", [
          new Date(now - 24 * 3_600_000).toISOString(),
        ]);
        lastPrune = now;
      }
      const code = newSecret("lnk");
      const expiresAt = new Date(now + deps.linkTtlMs).toISOString();
      rows.write(
        "INSERT INTO gateway_sign_in_links (link_hash, tenant_id, entity_id, purpose, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        [hashSecret(code), p.tenantId, p.entityId, purpose, new Date(now).toISOString(), expiresAt],
      );
      return { code, expiresAt };
    },
    async check(code) {
      const hash = hashSecret(code);
      const row = await rows.one<LinkRow>(
        "SELECT tenant_id, entity_id, purpose, expires_at, used_at FROM gateway_sign_in_links WHERE link_hash = ?",
        [hash],
      );
      if (!row)
        throw new AppError(
          "NOT_FOUND",
          "This sign-in link is unknown. Ask for a new one from a device where you are signed in.",
          { reason: "unknown" },
        );
      if (row.used_at)
        throw new AppError(
          "SIGNIN_LINK_USED",
          "This sign-in link was already used. A link works once: make a new one.",
          { reason: "used" },
        );
      if (Date.parse(row.expires_at) <= clock.now()) {
        throw new AppError(
          "SIGNIN_LINK_EXPIRED",
          "This sign-in link has expired. Make a new one from a device where you are signed in.",
          {
            reason: "expired",
            expired_at: row.expires_at,
          },
        );
      }
      return { ...row, hash };
    },
    async spend(hash, sessionId) {
      const done = await rows.change(
        "UPDATE gateway_sign_in_links SET used_at = ?, session_id = ? WHERE link_hash = ? AND used_at IS NULL AND expires_at > ?",
        [clock.iso(), sessionId, hash, clock.iso()],
      );
      if (done !== 1)
        throw new AppError(
          "SIGNIN_LINK_USED",
          "This sign-in link was already used. A link works once: make a new one.",
          { reason: "used" },
        );
    },
  };
}
