/**
 * The policy pack: data (fixtures/policy-pack.v1.json) read by a small rule engine.
 * `loadPolicyPack` → `createPolicyEngine(pack)` → `engine.check(fold, raw)` per event.
 */
export { createPolicyEngine, type PolicyEngineOptions } from "./engine.js";
export { DEFAULT_PACK_PATH, loadPolicyPack, parsePolicyPack, type PolicyPack, type PolicySpec } from "./pack.js";
export { RULE_TYPES } from "./rules/index.js";
export { SCHEMA_GATE_ID } from "./violation-event.js";
export { impliedJobState } from "./job-transition.js";
export type {
  CardFacts,
  FoldSnapshot,
  JobFacts,
  LedgerFold,
  PackPolicyEngine,
  PolicyFold,
  PolicyDecision,
  PolicyEngine,
  PolicyMode,
  PolicyViolation,
  ToolCallFacts,
  ViolationEventContext,
} from "./types.js";
