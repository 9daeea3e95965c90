/**
 * Office's settings door: what the configuration needs to read Office's settings, without
 * loading Office itself (a command that only verifies the ledger starts without it).
 */
export { LLM_DEFAULTS, type LlmConfig } from "./llm/config.js";
export { parseMcpServers, type McpServerConfig } from "./mcp/config.js";
export { CALDAV_ENV, type CalDavConfig, calDavSettings } from "./calendar/settings.js";
export { IMAP_ENV, type ImapConfig, imapSettings, MAIL_ENV, type MailConfig, mailSettings } from "./mail/settings.js";
