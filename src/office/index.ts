/**
 * Office's public door: the interface, its factory, its routes, and the provider seam.
 *
 * Every job change Office makes is decided by `decide` (./jobs/decide.ts), a pure function of the
 * job and a command; the machine's rules (which event moves a job where, which clicks each state
 * accepts and whose they are, what a viewer may press now) are the job kernel's, in
 * ../job/transitions.ts and ../job/summarize.ts, shared with the ledger and the gateway. Every
 * word a job's card carries is made by the narrator (./narrator.ts), from the records that prove it.
 */
export type { OfficeApi, VaultApi } from "./office-api.js";
export type { OutboxDelivery } from "./mail/index.js";
/** The SMTP transport, shared so the gateway's sign-in email goes out the same way as Office's mail. */
export { createSmtpTransport } from "./mail/index.js";
export { createOffice } from "./door.js";
export type { Office } from "./office.js";
export { migrateOffice } from "./migrate.js";
export { migratePgOffice } from "./pg/inbox-pg.js";
export { createPgSharedInbox } from "./pg/shared-inbox.js";
export { createOfficeRoutes } from "./routes.js";
export type { Planner } from "./planner/planner.js";
export { createRulesPlanner } from "./planner/rules.js";
export { selectPlanner } from "./llm/index.js";
export type { McpServerStatus } from "./mcp/hub.js";
export type { AgentToolView, ConversationTool } from "./mcp/agent-tools.js";
export { rotateVaultKey } from "./vault/vault-key.js";
export { createScriptedCalendarProvider } from "./tools/scripted-calendar.js";
export { createCalDavCalendar, type CalDavCalendar } from "./calendar/index.js";
/** The phone finder Office scrubs with, shared so the gateway's chat scrub reads text the same way. */
export { findPhones } from "./pii.js";
