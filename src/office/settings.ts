/**
 * Office's settings door: its slices of the environment and what each maps to, without loading
 * Office itself (a command that only verifies the ledger starts without it).
 */
export { CALDAV_ENV, type CalDavConfig, calDavSettings } from "./calendar/settings.js";
export { type LlmConfig, PLANNER_ENV, type PlannerSettings, plannerSettings } from "./llm/config.js";
export { IMAP_ENV, type ImapConfig, imapSettings, MAIL_ENV, type MailConfig, mailSettings } from "./mail/settings.js";
export type { McpServerConfig } from "./mcp/config.js";
export { MCP_ENV, type McpSettings, mcpSettings } from "./mcp/settings.js";
export { JITSI_ENV, type JitsiSettings, jitsiSettings } from "./tools/jitsi-settings.js";
