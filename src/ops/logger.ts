import { destination, pino, type DestinationStream, type Logger as PinoLogger } from "pino";
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
const REDACT_PATHS = [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`), ...SECRET_KEYS.map((k) => `*.*.${k}`)].map(
  (p) =>
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
    return pino(
      options,
      pretty({ colorize: true, sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" }),
    );
  }
  return pino(options, stdoutDestination());
}

/** Lines waiting for a slow reader beyond this are dropped rather than held. */
const MAX_PENDING_LOG_BYTES = 4 * 1024 * 1024;
/** True from a line handed to standard output until everything handed over is written. */
let stdoutBusy = false;

/**
 * Standard output, written off the main thread with a bounded buffer. A log reader that stops
 * reading (a full pipe) or goes away (a closed pipe) must never hold the event loop, or SIGTERM
 * could not be handled: a closed pipe turns logging off, a full one drops what does not fit.
 * The synchronous flush pino runs at exit is switched off, because it retries a broken pipe
 * forever; `flushLogs` below drains with a deadline instead.
 */
function stdoutDestination() {
  const dest = destination({ dest: 1, sync: false, minLength: 0, maxLength: MAX_PENDING_LOG_BYTES });
  dest.flushSync = () => {};
  // A logger cannot log its own failure; what failed to be written is lost, the process goes on.
  dest.on("error", () => {});
  const write = dest.write.bind(dest);
  dest.write = (line: string) => {
    stdoutBusy = true;
    return write(line);
  };
  // Emitted when a write completes with nothing more queued.
  dest.on("drain", () => void (stdoutBusy = false));
  return dest;
}

/** Waits until the lines already logged to standard output are written, or `ms` passed. */
export async function flushLogs(ms = 1000): Promise<void> {
  const until = performance.now() + ms;
  while (stdoutBusy && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
}

/** A logger that drops everything, for tools and tests that want silence. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
