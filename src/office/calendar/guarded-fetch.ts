import { ToolFailure } from "../tools/tool.js";

/**
 * The one place CalDAV failures become `ToolFailure`s. tsdav folds HTTP errors into its
 * results, swallows some of them while probing (service discovery tries several URLs) and
 * rethrows others with the server's raw body in the message, so we watch every request
 * ourselves instead of trusting what comes out of tsdav. No message here carries a password,
 * a header or a server body: they go to people and to the audit log.
 */

const AUTH_REFUSED = "Calendar sign-in was refused. Check CALDAV_USERNAME and CALDAV_PASSWORD.";

/** A fetch for one calendar operation, with what it saw along the way. */
export interface Guard {
  fetch: typeof globalThis.fetch;
  /** HTTP status of the latest answered request. */
  lastStatus?: number;
  /** The first provider failure seen, even if tsdav swallowed it and moved on. */
  firstFailure?: ToolFailure;
}

/**
 * A fetch that gives up when the operation's deadline passes (one deadline for all requests
 * of the operation, so discovery's several round trips cannot add up to minutes) and throws
 * a `ToolFailure` for answers no caller can work around: 401/403, 429 and 5xx.
 */
export function createGuard(timeoutMs: number): Guard {
  const deadline = AbortSignal.timeout(timeoutMs);
  const guard: Guard = {
    async fetch(input, init) {
      const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
      let res: Response;
      try {
        res = await fetch(input, { ...init, signal });
      } catch (err) {
        throw remember(guard, networkFailure(err, timeoutMs));
      }
      guard.lastStatus = res.status;
      const failure = statusFailure(res.status, res.headers.get("retry-after"));
      if (!failure) return res;
      await res.body?.cancel().catch(() => undefined);
      throw remember(guard, failure);
    },
  };
  return guard;
}

function remember(guard: Guard, failure: ToolFailure): ToolFailure {
  guard.firstFailure ??= failure;
  return failure;
}

/** The failure an HTTP status means on its own, or undefined when the caller must decide. */
function statusFailure(status: number, retryAfter?: string | null): ToolFailure | undefined {
  if (status === 401 || status === 403) return new ToolFailure("PROVIDER_AUTH_REQUIRED", AUTH_REFUSED);
  if (status === 429)
    return new ToolFailure(
      "PROVIDER_RATE_LIMIT",
      "The calendar server asked us to slow down.",
      waitSeconds(retryAfter),
    );
  if (status >= 500)
    return new ToolFailure("PROVIDER_UNAVAILABLE", `The calendar server is having trouble (HTTP ${status}).`);
  return undefined;
}

function waitSeconds(retryAfter: string | null | undefined): number | undefined {
  if (!retryAfter) return undefined;
  const seconds = /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : (Date.parse(retryAfter) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : undefined;
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);
const TIMED_OUT = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** Node's fetch reports the socket error as `cause` (an AggregateError when it tried several addresses). */
function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const { code, errors, cause } = e as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof code === "string") return code;
    e = Array.isArray(errors) ? errors[0] : cause;
  }
  return undefined;
}

function networkFailure(err: unknown, timeoutMs: number): ToolFailure {
  if (err instanceof ToolFailure) return err;
  const name = err instanceof Error ? err.name : "";
  const code = errorCode(err);
  if (name === "TimeoutError" || name === "AbortError" || (code && TIMED_OUT.has(code))) {
    return new ToolFailure(
      "PROVIDER_TIMEOUT",
      `The calendar server did not answer within ${Math.round(timeoutMs / 1000)} seconds.`,
    );
  }
  if (code && UNREACHABLE.has(code))
    return new ToolFailure(
      "PROVIDER_UNAVAILABLE",
      "The calendar server could not be reached. Check CALDAV_URL and that the server is running.",
    );
  if (code && /CERT|SSL|TLS/.test(code))
    return new ToolFailure("PROVIDER_UNAVAILABLE", "The calendar server's TLS certificate was not accepted.");
  return new ToolFailure("UNKNOWN", "The calendar request failed unexpectedly.");
}

/**
 * What an operation's error means to the caller: our own failures as they are; an error tsdav
 * raised after swallowing one of ours as that one; a deadline that fired while tsdav read a
 * body as a timeout; anything else as UNKNOWN (its text may quote the server, so it is dropped).
 */
export function toToolFailure(err: unknown, guard: Guard, timeoutMs: number): ToolFailure {
  if (err instanceof ToolFailure) return err;
  if (guard.firstFailure) return guard.firstFailure;
  return networkFailure(err, timeoutMs);
}
