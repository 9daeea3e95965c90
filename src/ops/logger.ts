import { pino, type DestinationStream, type Logger as PinoLogger } from "pino";
import pretty from "pino-pretty";

export type Logger = PinoLogger;

export interface LoggerOptions {
  level: string;
  /** Coloured single lines for a developer's terminal; JSON lines otherwise (journald, files). */
  pretty?: boolean;
  /** Where lines go; stdout by default. Tests pass a capturing stream. */
  destination?: DestinationStream;
}

/**
 * Keys whose values never reach a log line, wherever they appear one or two levels deep.
 * Request logs already carry only chosen fields (see request-log.ts); this is the net under
 * everything else a module might log: tokens, credentials, PII and message bodies.
 */
const SECRET_KEYS = [
  "token",
  "invite_token",
  "authorization",
  "cookie",
  "set-cookie",
  "api_key",
  "apiKey",
  "password",
  "secret",
  "email",
  "phone",
  "body_text",
  "body",
  "text",
  "input",
  "signin_url",
  "url_with_token",
];
const REDACT_PATHS = [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`), ...SECRET_KEYS.map((k) => `*.*.${k}`)].map((p) =>
  p.includes("-") ? p.replace(/(^|\.)([^.]*-[^.]*)$/, (_m, dot: string, key: string) => `${dot}["${key}"]`) : p,
);

/** The process logger: pino JSON lines with an ISO time, redacting secrets by key. */
export function createLogger(opts: LoggerOptions): Logger {
  const options = {
    level: opts.level,
    base: { service: "logline" },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (opts.destination) return pino(options, opts.destination);
  if (opts.pretty) {
    // In-process and synchronous (no worker thread), so nothing is lost when the process exits.
    return pino(options, pretty({ colorize: true, sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" }));
  }
  return pino(options);
}

/** A logger that drops everything, for tools and tests that want silence. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
