import type { TUblEvent } from "../../../contracts/events.js";
import type { LedgerFacts } from "../ledger-api.js";

export type PolicyMode = "enforce" | "warn" | "off";

/** What the ledger knows about a tenant, folded from its events; what the policy rules read. */
export interface LedgerFold extends LedgerFacts {
  /** Folds one accepted event in. */
  apply(event: TUblEvent): void;
  /** Marks the current state so a refused batch (or a failed commit) can be undone. */
  mark(): number;
  /** Undoes everything applied after `mark`. */
  rollbackTo(mark: number): void;
  /** Forgets undo information up to `mark` once a commit is durable. */
  release(mark: number): void;
}

export interface PolicyViolation {
  /** null when the refusal is not a pack policy (e.g. an unknown event type). */
  policy_id: string | null;
  code: string;
  message_safe: string;
}

export type PolicyDecision =
  | { ok: true; event: TUblEvent; warnings: PolicyViolation[] }
  | { ok: false; violation: PolicyViolation; warnings: PolicyViolation[] };

export interface PolicyEngine {
  /**
   * Checks one raw (unparsed) event against the schemas and every policy in the pack, reading
   * the fold as it is now. Pure: it never mutates the fold.
   */
  check(fold: LedgerFold, raw: unknown): PolicyDecision;
  /** Per-tenant override of a policy's mode. */
  setTenantMode(tenantId: string, policyId: string, mode: PolicyMode): void;
  /**
   * The `policy.violation` event to append for a refusal (or a warning), per the pack's
   * emit_on_reject rule; null when the pack emits nothing for it.
   */
  violationEvent(raw: unknown, violation: PolicyViolation, ctx: { event_id: string; ts: string; mode: "enforce" | "warn" }): TUblEvent | null;
}
