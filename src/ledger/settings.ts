/** The ledger's settings door: its slice of the environment, without loading the ledger itself. */
export { LEDGER_ENV, type LedgerSettings, ledgerSettings } from "./env.js";
