import type { z } from "zod";
import type { LedgerFold, PolicyFold } from "./types.js";

/** What a rule sees: one event and the fold as it is before that event. */
export interface RuleContext {
  /** The event: parsed by the contracts for fold rules, the raw object for shape rules. */
  readonly event: Record<string, unknown>;
  readonly eventType: string;
  readonly tenantId: string;
  readonly fold: PolicyFold;
  readonly actorId: string | undefined;
  readonly actorType: string | undefined;
  /** A parameter a rule names: the workspace's override, else the deployment's; undefined when neither. */
  param(name: string): number | undefined;
}

/** A compiled rule: null when the event passes, else a message that names fields, never values. */
export type RuleCheck = (ctx: RuleContext) => string | null;

interface CompileEnv {
  /** Every rule of the same policy, as written (so a rule can read its siblings' settings). */
  readonly siblings: ReadonlyArray<Record<string, unknown>>;
  /** Deployment parameters a rule may name (the engine's `params`), e.g. an edit window. */
  readonly params: Readonly<Record<string, number>>;
  /** Every policy id of the pack (a rule about overrides names them). */
  readonly policyIds: readonly string[];
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds rule types of every spec shape
export interface RuleType<S = any> {
  /** The rule's JSON, checked when the pack is loaded (strict: a typo is a load error). */
  readonly schema: z.ZodType<S>;
  /**
   * Reads only the event, never the fold: safe on the raw, unvalidated object, so policies made
   * only of such rules run before the schema gate and their codes win over generic ones.
   */
  readonly shape: boolean;
  compile(spec: S, env: CompileEnv): RuleCheck;
}

/** The job an event is about: the envelope's job_id, else the payload's. */
export function jobIdOf(event: Record<string, unknown>): string | undefined {
  const j = event.job_id ?? (event.payload as Record<string, unknown> | undefined)?.job_id;
  return typeof j === "string" ? j : undefined;
}

/** The rules read more than LedgerFacts: they need the fold `createFold()` builds. */
export function asPolicyFold(fold: LedgerFold): PolicyFold {
  if (
    typeof (fold as Partial<PolicyFold>).card !== "function" ||
    typeof (fold as Partial<PolicyFold>).job !== "function"
  ) {
    throw new TypeError("the policy engine needs the fold from createFold() (src/ledger/fold.ts)");
  }
  return fold as PolicyFold;
}
