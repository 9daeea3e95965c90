import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import { z } from "zod";
import { checkPreviewAllowList, checkTrustedProxies } from "./gateway/settings.js";
import { LOCALES, type Locale } from "./shared/i18n.js";
import { LLM_DEFAULTS, type LlmConfig, type McpServerConfig, parseMcpServers } from "./office/settings.js";

/**
 * Every setting LogLine reads, from the environment (and an optional `.env` file), validated once
 * at boot. A bad value stops the start with one line naming the variable and what it expects:
 * on a box with nobody on call, failing loudly at start beats misbehaving quietly later.
 */

const bool = (name: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => BOOL_WORDS.has(v), { message: `${name} must be one of 1, 0, true, false, yes, no, on, off` })
    .transform((v) => BOOL_WORDS.get(v)!);
const BOOL_WORDS = new Map([
  ["1", true],
  ["true", true],
  ["yes", true],
  ["on", true],
  ["0", false],
  ["false", false],
  ["no", false],
  ["off", false],
]);

const int = (name: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { message: `${name} must be a whole number between ${min} and ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `${name} must be a whole number between ${min} and ${max}` });

const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      message: `${name} must be an http:// or https:// URL`,
    })
    .transform((v) => v.replace(/\/+$/, ""));

const oneOf = <T extends string>(name: string, values: readonly [T, ...T[]]) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v): v is T => (values as readonly string[]).includes(v), {
      message: `${name} must be one of ${values.join(", ")}`,
    })
    .transform((v) => v as T);

function isJsonObject(v: string): boolean {
  try {
    const parsed: unknown = JSON.parse(v);
    return !!parsed && typeof parsed === "object" && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** Raw environment → typed values. Unset and empty variables both mean "use the default". */
const ZEnv = z.object({
  NODE_ENV: oneOf("NODE_ENV", ["development", "production", "test"]).optional(),
  PORT: int("PORT", 0, 65535).optional(),
  HOST: z.string().trim().min(1).optional(),
  DATA_DIR: z.string().trim().min(1).optional(),
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
  SMTP_URL: z
    .string()
    .trim()
    .refine((v) => /^smtps?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      message:
        "SMTP_URL must be an smtp:// (STARTTLS) or smtps:// (TLS) URL, e.g. smtp://user:pass@mail.example.com:587",
    })
    .optional(),
  SMTP_USER: z.string().trim().min(1).optional(),
  SMTP_PASSWORD: z.string().min(1).optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .refine((v) => /^(?:[^<>@\s][^<>@]*<[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+)$/.test(v), {
      message: "MAIL_FROM must be an address, e.g. office@example.com or Office <office@example.com>",
    })
    .optional(),
  IMAP_URL: z
    .string()
    .trim()
    .refine((v) => /^imaps?:\/\/[^\s]+$/.test(v) && URL.canParse(v), {
      message:
        "IMAP_URL must be an imap:// (STARTTLS when offered) or imaps:// (TLS) URL, e.g. imaps://user:pass@mail.example.com:993",
    })
    .optional(),
  IMAP_USER: z.string().trim().min(1).optional(),
  IMAP_PASSWORD: z.string().min(1).optional(),
  IMAP_MAILBOX: z.string().trim().min(1).max(200).optional(),
  INBOUND_MAX_BYTES: int("INBOUND_MAX_BYTES", 10_000, 50_000_000).optional(),
  CALDAV_URL: httpUrl("CALDAV_URL").optional(),
  CALDAV_USERNAME: z.string().trim().min(1).optional(),
  CALDAV_PASSWORD: z.string().min(1).optional(),
  CALDAV_CALENDAR: z.string().trim().min(1).optional(),
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

export interface MailConfig {
  /** smtp:// (STARTTLS when the server offers it) or smtps:// (TLS from the first byte); credentials removed. */
  url: string;
  user?: string;
  password?: string;
  /** The envelope and header sender, also the invite's ORGANIZER unless a person's address is known. */
  from: { name?: string; address: string };
}

export interface ImapConfig {
  /** imap:// or imaps://, credentials removed (for logs). */
  url: string;
  host: string;
  port: number;
  /** TLS from the first byte (imaps://); imap:// upgrades with STARTTLS when the server offers it. */
  secure: boolean;
  username: string;
  password: string;
  /** The folder answers arrive in (default INBOX). */
  mailbox: string;
  /** A mail larger than this is refused unread (default 1 MB). */
  maxBytes: number;
}

export interface CalDavConfig {
  /** The server's CalDAV root or principal URL (discovery starts there). */
  url: string;
  username: string;
  password: string;
  /** Which calendar: its display name or a path/URL; the first calendar when absent. */
  calendar?: string;
}

/** A configuration problem: `message` is the one line shown to whoever started the process. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = "ConfigError";
  }
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
    ...(mailConfig(e) ? { mail: mailConfig(e)! } : {}),
    ...(calDavConfig(e) ? { caldav: calDavConfig(e)! } : {}),
    ...(imapConfig(e) ? { imap: imapConfig(e)! } : {}),
    jitsiBaseUrl: e.JITSI_BASE_URL ?? "https://meet.jit.si",
    jitsiConfigured: e.JITSI_BASE_URL !== undefined,
    mcp: mcpConfig(e.MCP_CONFIG, env, cwd),
    // Loopback by default: the reverse proxy is the public door; HOST=0.0.0.0 exposes it directly.
    host: e.HOST ?? "127.0.0.1",
    dataDir: resolve(cwd, e.DATA_DIR ?? "./data"),
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

type Env = z.infer<typeof ZEnv>;

/** SMTP settings: credentials from the URL or from SMTP_USER/SMTP_PASSWORD (which win). */
function mailConfig(e: Env): MailConfig | undefined {
  if (!e.SMTP_URL && !e.MAIL_FROM) return undefined;
  if (!e.SMTP_URL)
    throw new ConfigError(
      "SMTP_URL",
      "Invalid configuration: SMTP_URL is required when MAIL_FROM is set (e.g. smtp://user:pass@mail.example.com:587)",
    );
  if (!e.MAIL_FROM)
    throw new ConfigError(
      "MAIL_FROM",
      "Invalid configuration: MAIL_FROM is required when SMTP_URL is set (the address invites come from, e.g. Office <office@example.com>)",
    );
  const url = new URL(e.SMTP_URL);
  const user = e.SMTP_USER ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const password = e.SMTP_PASSWORD ?? (url.password ? decodeURIComponent(url.password) : undefined);
  url.username = "";
  url.password = "";
  const m = /^\s*(?:"?([^"<]*?)"?\s*<([^>]+)>|(\S+))\s*$/.exec(e.MAIL_FROM)!;
  const name = m[1]?.trim();
  return {
    url: url.toString().replace(/\/$/, ""),
    ...(user ? { user } : {}),
    ...(password ? { password } : {}),
    from: { ...(name ? { name } : {}), address: (m[2] ?? m[3])!.trim() },
  };
}

/** IMAP settings: credentials from the URL or from IMAP_USER/IMAP_PASSWORD (which win), like SMTP's. */
function imapConfig(e: Env): ImapConfig | undefined {
  if (!e.IMAP_URL) {
    if (e.IMAP_USER || e.IMAP_PASSWORD || e.IMAP_MAILBOX)
      throw new ConfigError(
        "IMAP_URL",
        "Invalid configuration: IMAP_URL is required when IMAP_USER, IMAP_PASSWORD or IMAP_MAILBOX is set",
      );
    return undefined;
  }
  const url = new URL(e.IMAP_URL);
  const username = e.IMAP_USER ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const password = e.IMAP_PASSWORD ?? (url.password ? decodeURIComponent(url.password) : undefined);
  if (!username || !password)
    throw new ConfigError(
      username ? "IMAP_PASSWORD" : "IMAP_USER",
      "Invalid configuration: IMAP_URL needs a user name and password (in the URL, or IMAP_USER and IMAP_PASSWORD)",
    );
  const secure = url.protocol === "imaps:";
  url.username = "";
  url.password = "";
  return {
    url: url.toString().replace(/\/$/, ""),
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : secure ? 993 : 143,
    secure,
    username,
    password,
    mailbox: e.IMAP_MAILBOX ?? "INBOX",
    maxBytes: e.INBOUND_MAX_BYTES ?? 1_000_000,
  };
}

function calDavConfig(e: Env): CalDavConfig | undefined {
  if (!e.CALDAV_URL) {
    if (e.CALDAV_USERNAME || e.CALDAV_PASSWORD || e.CALDAV_CALENDAR)
      throw new ConfigError(
        "CALDAV_URL",
        "Invalid configuration: CALDAV_URL is required when CALDAV_USERNAME, CALDAV_PASSWORD or CALDAV_CALENDAR is set",
      );
    return undefined;
  }
  if (!e.CALDAV_USERNAME || !e.CALDAV_PASSWORD)
    throw new ConfigError(
      e.CALDAV_USERNAME ? "CALDAV_PASSWORD" : "CALDAV_USERNAME",
      "Invalid configuration: CALDAV_USERNAME and CALDAV_PASSWORD are required when CALDAV_URL is set",
    );
  return {
    url: e.CALDAV_URL,
    username: e.CALDAV_USERNAME,
    password: e.CALDAV_PASSWORD,
    ...(e.CALDAV_CALENDAR ? { calendar: e.CALDAV_CALENDAR } : {}),
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
