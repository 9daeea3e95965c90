import type { Locale } from "../shared/i18n.js";
import type { HostLedgerApi, LedgerTx } from "../ledger/index.js";
import type { AnswerFence } from "./emitter.js";
import type { AnswerMarker, InboxStore } from "./inbox.js";
import type { Clock } from "../shared/clock.js";
import type { Db } from "../shared/db.js";
import type { IdGenerator } from "../shared/ids.js";
import type { CalDavCalendar } from "./calendar/index.js";
import type { MailTransport } from "./mail/index.js";
import type { ImapConfig, MailConfig } from "./mail/settings.js";
import type { McpServerConfig } from "./mcp/config.js";
import type { Planner } from "./planner/planner.js";

interface OfficeLogger {
  error(obj: unknown, msg?: string): void;
  info?(obj: unknown, msg?: string): void;
}

/** Office's inbox where several processes share it (PostgreSQL): its rows and the fence of their first answer. */
export interface SharedInbox {
  store: InboxStore;
  marker: { run: AnswerMarker["run"]; withinCommit(): AnswerFence<LedgerTx, void | Promise<void>> | undefined };
}

export interface CreateOfficeDeps {
  ledger: HostLedgerApi;
  db: Db;
  /**
   * Set on PostgreSQL: the inbox lives in the shared database, and each job's events are kept in
   * memory (the ledger's reads answer later; Office folds a job at once). Absent: SQLite's inbox.
   */
  sharedInbox?: SharedInbox;
  /** Vault key file and artifact files live here. */
  dataDir: string;
  clock?: Clock;
  ids?: IdGenerator;
  /** `rules` by default; the LLM planner plugs in here. */
  planner?: Planner;
  /** The organizer's calendar (CalDAV); absent = events are written to no calendar and the cards say so. */
  calendarProvider?: CalDavCalendar;
  /** Jitsi Meet server rooms are named on (default the public service). */
  jitsiBaseUrl?: string;
  /** People may start a call (a room on jitsiBaseUrl) in a conversation: only when JITSI_BASE_URL was set. */
  calls?: boolean;
  /** Outgoing mail; absent = invites are not emailed and the cards say so. */
  mail?: MailConfig;
  /** Tests: a transport instead of SMTP_URL's, and a shorter backoff. */
  mailTransport?: Pick<MailTransport, "send">;
  mailSchedule?: readonly number[];
  logger?: OfficeLogger;
  /** Delay before each attempt: attempt 1 immediate, then +10 s, +60 s, +5 min. */
  retrySchedule?: readonly number[];
  /** MCP servers whose tools agents may be allowed (MCP_CONFIG). */
  mcpServers?: readonly McpServerConfig[];
  /** Timezone suggested (never assumed) when a request names none. */
  defaultTimezone?: string;
  /** The language agents speak to people whose profile names none (DEFAULT_LOCALE); English when absent. */
  defaultLocale?: Locale;
  /** The organizer's mailbox, where invitees' answers arrive (IMAP_URL); absent = answers are not read. */
  imap?: ImapConfig;
  /** Tests: how often the mailbox is looked at besides IDLE, and the waits between reconnects. */
  imapPollMs?: number;
  imapBackoffMs?: readonly number[];
  /** Circuit breaker: failures per tenant and provider within the window that stop retries. */
  breaker?: { threshold?: number; windowMs?: number };
}
