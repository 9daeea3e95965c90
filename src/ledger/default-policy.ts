import type { LedgerFold, PolicyEngine } from "./policy/types.js";
import { createBasicEngine, createBasicFold } from "./basic-policy.js";

/** The engine and fold a ledger uses when none is injected. */
export function createDefaultPolicy(): { engine: PolicyEngine; fold: LedgerFold } {
  return { engine: createBasicEngine(), fold: createBasicFold() };
}
