/** The ledger's public door: the interface, its SQLite factory, its routes and the verifier. */
export type { LedgerApi, LedgerFacts, AppendOptions } from "./ledger-api.js";
export { createLedger, type CreateLedgerDeps } from "./ledger.js";
export { createLedgerRoutes, type LedgerRoutesOptions } from "./routes.js";
export { verifyLedger, type VerifyLedgerOptions } from "./verify-ledger.js";
export { countTenantEvents, createChainChecker, importVerifiedEvents, readTenantEvents, GENESIS_HASH, type ChainCheck } from "./portable.js";
export { loadVerifier, verifierFromKey, SIGNING_KEY_FILE } from "./signing.js";
