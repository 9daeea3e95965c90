/** The ledger's public door: the interface, its SQLite factory, its routes and the verifier. */
export type { HostLedgerApi, LedgerApi, LedgerDoorApi, LedgerTx } from "./ledger-api.js";
export { createLedger, createPgLedgerDoor } from "./door.js";
export type { PgLedgerApi } from "./pg/pg-ledger-api.js";
export { replayThenFollow } from "./follow.js";
export { createLedgerRoutes } from "./routes.js";
export { verifyLedger } from "./verify-ledger.js";
export { verifyPgLedger } from "./pg/verify-pg.js";
export { migrateSqliteToPg, MigrationRefused } from "./pg/migrate-from-sqlite.js";
export {
  countTenantEvents,
  createChainChecker,
  importVerifiedEvents,
  readTenantEvents,
  GENESIS_HASH,
} from "./portable.js";
export {
  loadVerifiers,
  verifierFromKey,
  verifierFromPublicKey,
  SIGNING_KEY_FILE,
  RETIRED_KEYS_DIR,
} from "./signing.js";
export { rotateSigningKey } from "./key-rotation.js";
export { ReceiptError, verifyReceipt } from "./merkle/receipt.js";
