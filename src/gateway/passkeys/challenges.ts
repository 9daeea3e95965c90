import type { Clock } from "../../shared/clock.js";
import { AppError } from "../../shared/errors.js";
import type { AuthRows } from "../auth/auth-rows.js";
import type { Principal } from "../auth/token-store.js";

type ChallengePurpose = "register" | "sign_in";

export interface ChallengeStore {
  /** Remembers a challenge the server just made, for `purpose` (and, to register, for that person). */
  save(challenge: string, purpose: ChallengePurpose, p?: Principal): void;
  /**
   * Uses the challenge up: it must be one we made for this purpose (and person), unused and not
   * expired. The UPDATE's WHERE makes a second, concurrent use fail (on any process), so an
   * answer verifies once.
   */
  take(challenge: string, purpose: ChallengePurpose, p?: Principal): Promise<void>;
}

const refused = (reason: string) =>
  new AppError("PASSKEY_CHALLENGE_INVALID", "This passkey request is unknown, used already or expired. Start again.", {
    reason,
  });

/** WebAuthn challenges: single use, short-lived (ttlMs), pruned as new ones are made. */
export function createChallengeStore(deps: { rows: AuthRows; clock: Clock; ttlMs: number }): ChallengeStore {
  const { rows, clock } = deps;
  return {
    save(challenge, purpose, p) {
      const now = clock.now();
      // Kept an hour past expiry, so a late answer hears "expired" rather than "unknown".
      rows.write("DELETE FROM gateway_passkey_challenges WHERE expires_at < ?", [
        new Date(now - 3_600_000).toISOString(),
      ]);
      rows.write(
        "INSERT INTO gateway_passkey_challenges (challenge, purpose, tenant_id, entity_id, expires_at) VALUES (?, ?, ?, ?, ?)",
        [challenge, purpose, p?.tenantId ?? null, p?.entityId ?? null, new Date(now + deps.ttlMs).toISOString()],
      );
    },
    async take(challenge, purpose, p) {
      const row = await rows.one<{
        purpose: string;
        tenant_id: string | null;
        entity_id: string | null;
        expires_at: string;
        used_at: string | null;
      }>(
        "SELECT purpose, tenant_id, entity_id, expires_at, used_at FROM gateway_passkey_challenges WHERE challenge = ?",
        [challenge],
      );
      if (!row || row.purpose !== purpose) throw refused("unknown");
      if (p && (row.tenant_id !== p.tenantId || row.entity_id !== p.entityId)) throw refused("unknown");
      if (row.used_at) throw refused("used");
      if (Date.parse(row.expires_at) <= clock.now()) throw refused("expired");
      const used = await rows.change(
        "UPDATE gateway_passkey_challenges SET used_at = ? WHERE challenge = ? AND used_at IS NULL AND expires_at > ?",
        [clock.iso(), challenge, clock.iso()],
      );
      if (used !== 1) throw refused("used");
    },
  };
}
