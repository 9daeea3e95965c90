import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import { z } from "zod";
import { checkPreviewAllowList, checkTrustedProxies } from "./gateway/settings.js";
import { LOCALES, type Locale } from "./shared/i18n.js";
import {
  CALDAV_ENV,
  type CalDavConfig,
  calDavSettings,
  IMAP_ENV,
  type ImapConfig,
  imapSettings,
  LLM_DEFAULTS,
  type LlmConfig,
  MAIL_ENV,
  type MailConfig,
  mailSettings,
  type McpServerConfig,
  parseMcpServers,
} from "./office/settings.js";
import { bool, ConfigError, httpUrl, int, oneOf } from "./shared/env.js";

export { ConfigError };

/**
 * Every setting LogLine reads, from the environment (and an optional `.env` file), validated once
 * at boot. A bad value stops the start with one line naming the variable and what it expects:
 * on a box with nobody on call, failing loudly at start beats misbehaving quietly later.
 */

function isJsonObject(v: string): boolean {
  try {
    const parsed: unknown = JSON.parse(v);
    return !!parsed && typeof parsed === "object" && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

function isPostgresUrl(v: string): boolean {
  if (!URL.canParse(v)) return false;
  const { protocol } = new URL(v);
  return protocol === "postgres:" || protocol === "postgresql:";
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Raw environment → typed values. Unset and empty variables both mean "use the default". */
const ZEnv = z.object({
  NODE_ENV: oneOf("NODE_ENV", ["development", "production", "test"]).optional(),
  PORT: int("PORT", 0, 65535).optional(),
  HOST: z.string().trim().min(1).optional(),
  DATA_DIR: z.string().trim().min(1).optional(),
  DATABASE_URL: z
    .string()
    .trim()
    .refine(isPostgresUrl, { message: "DATABASE_URL must be a postgres:// or postgresql:// URL" })
    .optional(),
  LOGLINE_DEMO: bool("LOGLINE_DEMO").optional(),
  PUBLIC_URL: httpUrl("PUBLIC_URL").optional(),
  LOG_LEVEL: oneOf("LOG_LEVEL", LOG_LEVELS).optional(),
  LEDGER_SYNC: oneOf("LEDGER_SYNC", ["full", "normal"]).optional(),
  LEDGER_LOG_NAME: z
    .string()
    .trim()
    .regex(/^[^\s+]{1,200}$/, "LEDGER_LOG_NAME: no spaces or '+', at most 200 characters (e.g. chat.example.com)")
    .optional(),
  OFFICE_PLANNER: oneOf("OFFICE_PLANNER", ["rules", "llm"]).optional(),
  OFFICE_LLM_BASE_URL: httpUrl("OFFICE_LLM_BASE_URL").optional(),
  OFFICE_LLM_MODEL: z.string().trim().min(1).optional(),
  OFFICE_LLM_API_KEY: z.string().trim().min(1).optional(),
  OFFICE_LLM_TIMEOUT_MS: int("OFFICE_LLM_TIMEOUT_MS", 1_000, 600_000).optional(),
  OFFICE_LLM_LOG_FULL: bool("OFFICE_LLM_LOG_FULL").optional(),
  OFFICE_LLM_MAX_TOKENS: int("OFFICE_LLM_MAX_TOKENS", 64, 8_000).optional(),
  OFFICE_LLM_RESPONSE_FORMAT: oneOf("OFFICE_LLM_RESPONSE_FORMAT", ["json_schema", "json_object"]).optional(),
  OFFICE_LLM_EXTRA_BODY: z
    .string()
    .trim()
    .refine(isJsonObject, { message: 'OFFICE_LLM_EXTRA_BODY must be a JSON object, e.g. {"think":false}' })
    .transform((v) => JSON.parse(v) as Record<string, unknown>)
    .optional(),
  RATE_LIMIT_PER_MINUTE: int("RATE_LIMIT_PER_MINUTE", 1, 1_000_000).optional(),
  RATE_LIMIT_BURST: int("RATE_LIMIT_BURST", 1, 1_000_000).optional(),
  STREAMS_PER_TOKEN: int("STREAMS_PER_TOKEN", 1, 100_000).optional(),
  HTTP_HEADERS_TIMEOUT_MS: int("HTTP_HEADERS_TIMEOUT_MS", 1000, 600_000).optional(),
  HTTP_REQUEST_TIMEOUT_MS: int("HTTP_REQUEST_TIMEOUT_MS", 1000, 3_600_000).optional(),
  HTTP_KEEPALIVE_TIMEOUT_MS: int("HTTP_KEEPALIVE_TIMEOUT_MS", 100, 600_000).optional(),
  STREAMS_PER_TENANT: int("STREAMS_PER_TENANT", 1, 1_000_000).optional(),
  METRICS_TOKEN: z.string().trim().min(16, { message: "METRICS_TOKEN must be at least 16 characters" }).optional(),
  SIGNUP: oneOf("SIGNUP", ["open", "invite", "closed"]).optional(),
  TRUSTED_PROXIES: z
    .string()
    .trim()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((x) => x.trim())
            .filter(Boolean)
        : [],
    )
    .superRefine((list, ctx) => {
      try {
        checkTrustedProxies(list);
      } catch (err) {
        ctx.addIssue({
          code: "custom",
          message: `TRUSTED_PROXIES must list IP addresses, CIDR ranges or loopback/linklocal/uniquelocal (${(err as Error).message})`,
        });
      }
    }),
  SHUTDOWN_TIMEOUT_MS: int("SHUTDOWN_TIMEOUT_MS", 100, 600_000).optional(),
  ...MAIL_ENV.shape,
  ...IMAP_ENV.shape,
  ...CALDAV_ENV.shape,
  JITSI_BASE_URL: httpUrl("JITSI_BASE_URL").optional(),
  SIGNIN_LINK_TTL_MINUTES: int("SIGNIN_LINK_TTL_MINUTES", 1, 60).optional(),
  MCP_CONFIG: z.string().trim().min(1).optional(),
  MESSAGE_EDIT_WINDOW_SECONDS: int("MESSAGE_EDIT_WINDOW_SECONDS", 1, 31_536_000).optional(),
  DIGEST_AFTER_MINUTES: int("DIGEST_AFTER_MINUTES", 1, 10_080).optional(),
  DEFAULT_LOCALE: oneOf("DEFAULT_LOCALE", LOCALES).optional(),
  LINK_PREVIEWS: bool("LINK_PREVIEWS").optional(),
  LINK_PREVIEW_ALLOW_CIDRS: z
    .string()
    .trim()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((x) => x.trim())
            .filter(Boolean)
        : [],
    )
    .superRefine((list, ctx) => {
      try {
        checkPreviewAllowList(list);
      } catch (err) {
        ctx.addIssue({
          code: "custom",
          message: `LINK_PREVIEW_ALLOW_CIDRS must list CIDR ranges: ${(err as Error).message}`,
        });
      }
    }),
});

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  /** Absolute path; created at boot when missing. */
  dataDir: string;
  /** The PostgreSQL ledger the CLI's `migrate-to-pg` copies into and `verify` checks (the server still runs on SQLite). */
  databaseUrl?: string;
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
  ledgerSync: "full" | "normal";
  /** The Merkle log's name: key name of signed checkpoints, origins `<name>/<tenant_id>`. */
  logName: string;
  office: {
    planner: "rules" | "llm";
    llm?: LlmConfig;
  };
  rateLimit: { perMinute: number; burst: number };
  /** Concurrent event streams allowed per token and per workspace. */
  streams: { perToken: number; perTenant: number };
  /** Deadlines for slow clients: headers, the whole request, idle keep-alive. */
  httpTimeouts: { headersMs: number; requestMs: number; keepAliveMs: number };
  /** When set, `/metrics` also answers non-loopback callers that present it as a bearer token. */
  metricsToken?: string;
  /** Sign-up; unset: open until the first workspace exists, then invite. */
  signup?: "open" | "invite" | "closed";
  /** Proxies whose X-Forwarded-For is believed for client addresses. */
  trustedProxies: string[];
  /** How long a SIGTERM may wait for in-flight work before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** Outgoing mail (invites); absent means nothing is emailed and the cards say so. */
  mail?: MailConfig;
  /** The organizer's CalDAV calendar; absent means events are not written to any calendar. */
  caldav?: CalDavConfig;
  /** The organizer's mailbox, where invitees' answers arrive; absent means answers are not read. */
  imap?: ImapConfig;
  /** Jitsi Meet server rooms are created on (a self-hosted one works the same). */
  jitsiBaseUrl: string;
  /** JITSI_BASE_URL was set: people may start a call in a conversation (never on the default service). */
  jitsiConfigured: boolean;
  /** MCP servers agents may use (MCP_CONFIG); empty when none is configured. */
  mcp: { file?: string; servers: McpServerConfig[] };
  /** How long a one-time sign-in link (another device, or by email) works. */
  signInLinkTtlMinutes: number;
  /** How long after sending a person may still edit a message (the policy pack enforces it). */
  messageEditWindowSeconds: number;
  /** The e-mail digest tells of what waited on a person at least this long (with mail configured). */
  digestAfterMinutes: number;
  /** The language agents speak to people whose profile names none. */
  defaultLocale: Locale;
  /** Link previews: whether the server fetches them, and the non-public ranges it may reach all the same. */
  linkPreviews: { enabled: boolean; allowCidrs: string[] };
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
      got === undefined || /KEY|TOKEN|PASSWORD|SMTP_URL|CALDAV_URL|IMAP_URL/.test(variable)
        ? ""
        : ` (got ${JSON.stringify(got.length > 60 ? `${got.slice(0, 60)}…` : got)})`;
    const what = issue.message.startsWith(variable) ? issue.message : `${variable}: ${issue.message}`;
    throw new ConfigError(variable, `Invalid configuration: ${what}${shown}`);
  }
  const e = parsed.data;
  const nodeEnv = e.NODE_ENV ?? "development";
  const port = e.PORT ?? 3000;

  if (nodeEnv === "production" && !e.PUBLIC_URL) {
    // Invite links and sign-in links would otherwise point at localhost, and cookies would lack Secure.
    throw new ConfigError(
      "PUBLIC_URL",
      "Invalid configuration: PUBLIC_URL is required when NODE_ENV=production (the https:// address people open, e.g. https://chat.example.com)",
    );
  }

  const planner = e.OFFICE_PLANNER ?? "rules";
  let llm: Config["office"]["llm"];
  if (planner === "llm") {
    if (!e.OFFICE_LLM_BASE_URL)
      throw new ConfigError(
        "OFFICE_LLM_BASE_URL",
        "Invalid configuration: OFFICE_LLM_BASE_URL is required when OFFICE_PLANNER=llm (an OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1)",
      );
    if (!e.OFFICE_LLM_MODEL)
      throw new ConfigError(
        "OFFICE_LLM_MODEL",
        "Invalid configuration: OFFICE_LLM_MODEL is required when OFFICE_PLANNER=llm (the model name the endpoint serves)",
      );
    llm = {
      baseUrl: e.OFFICE_LLM_BASE_URL,
      model: e.OFFICE_LLM_MODEL,
      ...(e.OFFICE_LLM_API_KEY ? { apiKey: e.OFFICE_LLM_API_KEY } : {}),
      timeoutMs: e.OFFICE_LLM_TIMEOUT_MS ?? LLM_DEFAULTS.timeoutMs,
      logFull: e.OFFICE_LLM_LOG_FULL ?? false,
      maxTokens: e.OFFICE_LLM_MAX_TOKENS ?? LLM_DEFAULTS.maxTokens,
      responseFormat: e.OFFICE_LLM_RESPONSE_FORMAT ?? LLM_DEFAULTS.responseFormat,
      ...(e.OFFICE_LLM_EXTRA_BODY ? { extraBody: e.OFFICE_LLM_EXTRA_BODY } : {}),
    };
  }

  return {
    env: nodeEnv,
    port,
    ...(mailSettings(e) ? { mail: mailSettings(e)! } : {}),
    ...(calDavSettings(e) ? { caldav: calDavSettings(e)! } : {}),
    ...(imapSettings(e) ? { imap: imapSettings(e)! } : {}),
    jitsiBaseUrl: e.JITSI_BASE_URL ?? "https://meet.jit.si",
    jitsiConfigured: e.JITSI_BASE_URL !== undefined,
    mcp: mcpConfig(e.MCP_CONFIG, env, cwd),
    // Loopback by default: the reverse proxy is the public door; HOST=0.0.0.0 exposes it directly.
    host: e.HOST ?? "127.0.0.1",
    dataDir: resolve(cwd, e.DATA_DIR ?? "./data"),
    ...(e.DATABASE_URL ? { databaseUrl: e.DATABASE_URL } : {}),
    demo: e.LOGLINE_DEMO ?? nodeEnv !== "production",
    ...(e.PUBLIC_URL ? { publicUrl: e.PUBLIC_URL } : {}),
    logLevel: e.LOG_LEVEL ?? (nodeEnv === "test" ? "warn" : "info"),
    prettyLogs: nodeEnv === "development" && Boolean(process.stdout.isTTY),
    ledgerSync: e.LEDGER_SYNC ?? "full",
    logName: e.LEDGER_LOG_NAME ?? (e.PUBLIC_URL ? new URL(e.PUBLIC_URL).host : "logline.local"),
    office: { planner, ...(llm ? { llm } : {}) },
    // The gateway's own generous default (20/s sustained, bursts of 120 per entity).
    rateLimit: { perMinute: e.RATE_LIMIT_PER_MINUTE ?? 1200, burst: e.RATE_LIMIT_BURST ?? 120 },
    streams: { perToken: e.STREAMS_PER_TOKEN ?? 20, perTenant: e.STREAMS_PER_TENANT ?? 5000 },
    httpTimeouts: {
      headersMs: e.HTTP_HEADERS_TIMEOUT_MS ?? 10_000,
      requestMs: e.HTTP_REQUEST_TIMEOUT_MS ?? 60_000,
      keepAliveMs: e.HTTP_KEEPALIVE_TIMEOUT_MS ?? 5_000,
    },
    ...(e.METRICS_TOKEN ? { metricsToken: e.METRICS_TOKEN } : {}),
    ...(e.SIGNUP ? { signup: e.SIGNUP } : {}),
    trustedProxies: e.TRUSTED_PROXIES,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS ?? 10_000,
    signInLinkTtlMinutes: e.SIGNIN_LINK_TTL_MINUTES ?? 10,
    messageEditWindowSeconds: e.MESSAGE_EDIT_WINDOW_SECONDS ?? 86_400,
    digestAfterMinutes: e.DIGEST_AFTER_MINUTES ?? 30,
    defaultLocale: e.DEFAULT_LOCALE ?? "en",
    linkPreviews: { enabled: e.LINK_PREVIEWS ?? false, allowCidrs: e.LINK_PREVIEW_ALLOW_CIDRS },
  };
}

/** The MCP servers file, read and checked at boot: a bad file stops the boot like a bad variable. */
function mcpConfig(path: string | undefined, env: Record<string, string | undefined>, cwd: string): Config["mcp"] {
  if (!path) return { servers: [] };
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(
      "MCP_CONFIG",
      `Invalid configuration: MCP_CONFIG points at ${file}, which cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  try {
    return { file, servers: parseMcpServers(text, env) };
  } catch (err) {
    throw new ConfigError("MCP_CONFIG", `Invalid configuration: MCP_CONFIG ${file}: ${(err as Error).message}`);
  }
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
