/** Office's public door: the interface, its factory, its routes, and the provider seam. */
export type { OfficeApi, VaultApi } from "./office-api.js";
export type { OutboxDelivery } from "./mail/index.js";
/** The SMTP transport, shared so the gateway's sign-in email goes out the same way as Office's mail. */
export { createSmtpTransport } from "./mail/index.js";
export { createOffice, type CreateOfficeDeps, type Office } from "./office.js";
export { migrateOffice } from "./migrate.js";
export { createOfficeRoutes } from "./routes.js";
export type { Planner } from "./planner/planner.js";
export { createRulesPlanner } from "./planner/rules.js";
export { selectPlanner } from "./llm/index.js";
export type { McpServerStatus } from "./mcp/hub.js";
export type { AgentToolView, ConversationTool } from "./mcp/agent-tools.js";
export { rotateVaultKey } from "./vault-key.js";
export { createScriptedCalendarProvider } from "./tools/scripted-calendar.js";
export { createCalDavCalendar, type CalDavCalendar } from "./calendar/index.js";
/** The phone finder Office scrubs with, shared so the gateway's chat scrub reads text the same way. */
export { findPhones } from "./pii.js";
