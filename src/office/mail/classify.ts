import { redactEmail } from "../pii.js";

/** What one failed SMTP attempt means for the row, with a text safe to store and show. */
export interface FailureClass {
  retryable: boolean;
  /** The server's answer, or a short description of the connection problem; no addresses. */
  error: string;
  /** The SMTP reply code, when the server answered. */
  code?: number;
}

/**
 * The connection failed before the server could judge the message: the same message may well
 * go through later. Node's own codes arrive as `originalCode` when nodemailer re-codes them.
 */
const CONNECTION: Record<string, string> = {
  ECONNREFUSED: "The mail server refused the connection",
  ECONNRESET: "The mail server closed the connection",
  ECONNECTION: "The connection to the mail server closed unexpectedly",
  ESOCKET: "The connection to the mail server failed",
  ETIMEDOUT: "The mail server did not answer in time",
  EDNS: "The mail server's name could not be resolved",
  ENOTFOUND: "The mail server's name could not be resolved",
  EAI_AGAIN: "The mail server's name could not be resolved",
  EHOSTUNREACH: "The mail server could not be reached",
  ENETUNREACH: "The mail server could not be reached",
  EPIPE: "The mail server closed the connection",
};

/** Anything shaped like `local@domain`, including the redacted form (so redacting twice is a no-op). */
const ADDRESS_RE = /[^\s<>()[\]"',;:@]+@[A-Za-z0-9.-]+/g;
const MAX_ERROR = 500;

/**
 * Replaces every address in a server answer with its redacted form: servers echo recipients
 * (`550 5.1.1 <bob@example.com>: unknown user`), and this text is stored and shown on cards.
 */
export function scrubAddresses(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const scrubbed = flat.replace(ADDRESS_RE, (m) => redactEmail(m));
  return scrubbed.length > MAX_ERROR ? `${scrubbed.slice(0, MAX_ERROR - 1)}…` : scrubbed;
}

interface MailErrorLike {
  code?: unknown;
  originalCode?: unknown;
  responseCode?: unknown;
  response?: unknown;
  permanent?: unknown;
  timeoutType?: unknown;
  message?: unknown;
}

/**
 * 2xx never arrives here. A reply code decides first: 4xx retries, 5xx fails at once, except
 * that nodemailer's `permanent` flag wins when present (it treats 503, "bad sequence", as
 * transient: the same message can pass on a new connection). Without a reply, connection
 * problems retry and anything else (TLS or credential setup, a malformed envelope) fails,
 * since retrying it unchanged gets the same answer.
 */
export function classifyFailure(err: unknown): FailureClass {
  const e = (typeof err === "object" && err !== null ? err : { message: String(err) }) as MailErrorLike;
  if (typeof e.responseCode === "number" && e.responseCode >= 400) {
    const answer = typeof e.response === "string" && e.response ? e.response : String(e.message ?? e.responseCode);
    const permanent = typeof e.permanent === "boolean" ? e.permanent : e.responseCode >= 500;
    return { retryable: !permanent, error: scrubAddresses(answer), code: e.responseCode };
  }
  for (const c of [e.originalCode, e.code]) {
    if (typeof c !== "string" || !(c in CONNECTION)) continue;
    const detail = typeof e.timeoutType === "string" ? e.timeoutType : c;
    return { retryable: true, error: `${CONNECTION[c]} (${detail})` };
  }
  const code = typeof e.code === "string" ? `${e.code}: ` : "";
  return { retryable: false, error: scrubAddresses(`${code}${String(e.message ?? "unknown error")}`) };
}

/**
 * The backoff decision after attempt `attempt` failed retryably: the delay before the next one,
 * or null when the schedule is spent. `base` is the attempt count at the last manual resend,
 * so a resend starts a fresh round of waits.
 */
export function nextDelay(schedule: readonly number[], attempt: number, base: number): number | null {
  const index = attempt - base - 1;
  return index >= 0 && index < schedule.length ? schedule[index]! : null;
}
