/**
 * The policy pack: data (fixtures/policy-pack.v1.json) read by a small rule engine.
 * `loadPolicyPack` → `createPolicyEngine(pack)` → `engine.check(fold, raw)` per event.
 */
export { createPolicyEngine } from "./engine.js";
export { loadPolicyPack, parsePolicyPack, type PolicyPack } from "./pack.js";
export { RULE_TYPES } from "./rules/index.js";
export type {
  PackPolicyEngine,
  PolicyFold,
  PolicyDecision,
} from "./types.js";
