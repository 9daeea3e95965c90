/** The ledger's public door: the interface, its SQLite factory, its routes and the verifier. */
export type { LedgerApi } from "./ledger-api.js";
export { createLedger } from "./ledger.js";
export { createLedgerRoutes } from "./routes.js";
export { verifyLedger } from "./verify-ledger.js";
export { countTenantEvents, createChainChecker, importVerifiedEvents, readTenantEvents, GENESIS_HASH } from "./portable.js";
export { loadVerifier, verifierFromKey, SIGNING_KEY_FILE } from "./signing.js";
