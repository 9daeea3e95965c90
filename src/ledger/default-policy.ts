import { createFold, type FoldOptions } from "./fold.js";
import { createPolicyEngine, loadPolicyPack } from "./policy/index.js";
import type { LedgerFold, PolicyEngine } from "./policy/types.js";

/** The engine and fold a ledger uses when none is injected: Policy Pack v1 over the ledger's fold. */
export function createDefaultPolicy(
  params?: Readonly<Record<string, number>>,
  foldOptions?: FoldOptions,
): {
  engine: PolicyEngine;
  fold: LedgerFold;
} {
  return { engine: createPolicyEngine(loadPolicyPack(), params ? { params } : {}), fold: createFold(foldOptions) };
}
