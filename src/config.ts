import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import { z } from "zod";
import { GATEWAY_ENV, type GatewaySettings, gatewaySettings } from "./gateway/settings.js";
import { LEDGER_ENV, type LedgerSettings, ledgerSettings } from "./ledger/settings.js";
import {
  CALDAV_ENV,
  type CalDavConfig,
  calDavSettings,
  IMAP_ENV,
  type ImapConfig,
  imapSettings,
  JITSI_ENV,
  type JitsiSettings,
  jitsiSettings,
  MAIL_ENV,
  MCP_ENV,
  type MailConfig,
  type McpSettings,
  mailSettings,
  mcpSettings,
  PLANNER_ENV,
  type PlannerSettings,
  plannerSettings,
} from "./office/settings.js";
import { LOCALES, type Locale } from "./shared/i18n.js";
import { bool, ConfigError, httpUrl, int, oneOf } from "./shared/env.js";

export { ConfigError };

/**
 * Every setting LogLine reads, from the environment (and an optional `.env` file), validated once
 * at boot. A bad value stops the start with one line naming the variable and what it expects:
 * on a box with nobody on call, failing loudly at start beats misbehaving quietly later.
 *
 * Each module owns its slice (the variables, their checks, what they map to) and exports it from
 * its settings door; this file keeps only the process's own settings and composes the rest.
 */

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** The process's own variables: where it listens, where its data lives, how it logs. */
const PROCESS_ENV = z.object({
  NODE_ENV: oneOf("NODE_ENV", ["development", "production", "test"]).optional(),
  PORT: int("PORT", 0, 65535).optional(),
  HOST: z.string().trim().min(1).optional(),
  DATA_DIR: z.string().trim().min(1).optional(),
  LOGLINE_DEMO: bool("LOGLINE_DEMO").optional(),
  PUBLIC_URL: httpUrl("PUBLIC_URL").optional(),
  LOG_LEVEL: oneOf("LOG_LEVEL", LOG_LEVELS).optional(),
  SHUTDOWN_TIMEOUT_MS: int("SHUTDOWN_TIMEOUT_MS", 100, 600_000).optional(),
  DEFAULT_LOCALE: oneOf("DEFAULT_LOCALE", LOCALES).optional(),
});

/** Raw environment → typed values. Unset and empty variables both mean "use the default". */
const ZEnv = z.object({
  ...PROCESS_ENV.shape,
  ...LEDGER_ENV.shape,
  ...PLANNER_ENV.shape,
  ...MAIL_ENV.shape,
  ...IMAP_ENV.shape,
  ...CALDAV_ENV.shape,
  ...JITSI_ENV.shape,
  ...MCP_ENV.shape,
  ...GATEWAY_ENV.shape,
});

export interface Config extends LedgerSettings, GatewaySettings, JitsiSettings {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  /** Absolute path; created at boot when missing. */
  dataDir: string;
  /** Seed the demo tenant, only ever on an empty database. */
  demo: boolean;
  /**
   * Where people reach this server: invite and sign-in links; `https://` turns on Secure cookies.
   * Unset outside production: the listening address is used.
   */
  publicUrl?: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Logs as coloured lines instead of JSON (development on a terminal). */
  prettyLogs: boolean;
  /** How long a SIGTERM may wait for in-flight work before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** The language agents speak to people whose profile names none. */
  defaultLocale: Locale;
  office: PlannerSettings;
  /** Outgoing mail (invites); absent means nothing is emailed and the cards say so. */
  mail?: MailConfig;
  /** The organizer's CalDAV calendar; absent means events are not written to any calendar. */
  caldav?: CalDavConfig;
  /** The organizer's mailbox, where invitees' answers arrive; absent means answers are not read. */
  imap?: ImapConfig;
  /** MCP servers agents may use (MCP_CONFIG); empty when none is configured. */
  mcp: McpSettings;
}

/**
 * Validates `env` and fills the defaults. Throws ConfigError naming the first bad variable.
 * Pure: `env` is any string map, so tests need no process environment.
 */
export function parseConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const present: Record<string, string> = {};
  for (const key of Object.keys(ZEnv.shape)) {
    const v = env[key];
    if (v !== undefined && v.trim() !== "") present[key] = v;
  }
  const parsed = ZEnv.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? "environment");
    const got = present[variable];
    // Secrets are never echoed back, even when wrong.
    const shown =
      got === undefined || /KEY|TOKEN|PASSWORD|SMTP_URL|CALDAV_URL|IMAP_URL|DATABASE_URL/.test(variable)
        ? ""
        : ` (got ${JSON.stringify(got.length > 60 ? `${got.slice(0, 60)}…` : got)})`;
    const what = issue.message.startsWith(variable) ? issue.message : `${variable}: ${issue.message}`;
    throw new ConfigError(variable, `Invalid configuration: ${what}${shown}`);
  }
  const e = parsed.data;
  const nodeEnv = e.NODE_ENV ?? "development";

  if (nodeEnv === "production" && !e.PUBLIC_URL) {
    // Invite links and sign-in links would otherwise point at localhost, and cookies would lack Secure.
    throw new ConfigError(
      "PUBLIC_URL",
      "Invalid configuration: PUBLIC_URL is required when NODE_ENV=production (the https:// address people open, e.g. https://chat.example.com)",
    );
  }
  const office = plannerSettings(e);
  const mail = mailSettings(e);
  const caldav = calDavSettings(e);
  const imap = imapSettings(e);

  return {
    env: nodeEnv,
    port: e.PORT ?? 3000,
    // Loopback by default: the reverse proxy is the public door; HOST=0.0.0.0 exposes it directly.
    host: e.HOST ?? "127.0.0.1",
    dataDir: resolve(cwd, e.DATA_DIR ?? "./data"),
    demo: e.LOGLINE_DEMO ?? nodeEnv !== "production",
    ...(e.PUBLIC_URL ? { publicUrl: e.PUBLIC_URL } : {}),
    logLevel: e.LOG_LEVEL ?? (nodeEnv === "test" ? "warn" : "info"),
    prettyLogs: nodeEnv === "development" && Boolean(process.stdout.isTTY),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS ?? 10_000,
    defaultLocale: e.DEFAULT_LOCALE ?? "en",
    ...ledgerSettings(e, e.PUBLIC_URL),
    office,
    ...(mail ? { mail } : {}),
    ...(caldav ? { caldav } : {}),
    ...(imap ? { imap } : {}),
    ...jitsiSettings(e),
    mcp: mcpSettings(e, env, cwd),
    ...gatewaySettings(e),
  };
}

/**
 * Reads `.env` (or the file named by ENV_FILE) when present. Variables already set in the real
 * environment win, so a systemd `Environment=` line always overrides the file.
 */
function readEnvFile(env: Record<string, string | undefined>, cwd = process.cwd()): Record<string, string | undefined> {
  const file = resolve(cwd, env.ENV_FILE ?? ".env");
  if (!existsSync(file)) {
    if (env.ENV_FILE)
      throw new ConfigError("ENV_FILE", `Invalid configuration: ENV_FILE points at ${file}, which does not exist`);
    return env;
  }
  let fromFile: Record<string, string>;
  try {
    fromFile = parseEnv(readFileSync(file, "utf8")) as Record<string, string>;
  } catch (err) {
    throw new ConfigError("ENV_FILE", `Invalid configuration: cannot read ${file}: ${(err as Error).message}`);
  }
  return { ...fromFile, ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) };
}

/** The boot path: `.env` + environment → Config. */
export function loadConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  return deepFreeze(parseConfig(readEnvFile(env, cwd), cwd));
}

/** Every variable the schema reads (docs/operate/configuration.md lists exactly these). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ZEnv.shape);

/** Parsed once at boot and passed down read-only: nothing changes a setting afterwards. */
function deepFreeze<T>(value: T): Readonly<T> {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** What is safe to log about the configuration (no keys, no tokens). */
export function describeConfig(c: Config): Record<string, unknown> {
  return {
    env: c.env,
    host: c.host,
    port: c.port,
    data_dir: c.dataDir,
    demo: c.demo,
    public_url: c.publicUrl ?? "(the listening address)",
    ledger_sync: c.ledgerSync,
    ledger_log_name: c.logName,
    planner: c.office.planner,
    ...(c.office.llm
      ? {
          llm_base_url: c.office.llm.baseUrl,
          llm_model: c.office.llm.model,
          llm_api_key: c.office.llm.apiKey ? "set" : "unset",
        }
      : {}),
    metrics_token: c.metricsToken ? "set" : "unset",
    signup: c.signup ?? "open until the first workspace, then invite",
    trusted_proxies: c.trustedProxies.length ? c.trustedProxies.join(",") : "none",
    mail: c.mail ? `${c.mail.url} as ${c.mail.from.address}` : "off (invites are not emailed)",
    caldav: c.caldav ? c.caldav.url : "off (events are not written to a calendar)",
    imap: c.imap ? `${c.imap.url} (${c.imap.mailbox})` : "off (invitees' answers are not read)",
    jitsi: c.jitsiBaseUrl,
    default_locale: c.defaultLocale,
    mcp_servers: c.mcp.servers.length ? c.mcp.servers.map((m) => `${m.name} (${m.transport})`).join(", ") : "none",
  };
}
