import { createHash } from "node:crypto";
import { ToolFailure, type ToolErrorCode } from "./tool.js";

export type MeetingLinkType = "google_meet" | "zoom" | "teams" | "phone" | "in_person";

export interface CalendarEventRequest {
  tenant_id: string;
  idempotency_key: string;
  link_type: MeetingLinkType;
  title: string;
  start_utc: number;
  end_utc: number;
  timezone: string;
  attendees: Array<{ name: string; email: string }>;
}

export interface CalendarEventResult {
  provider_event_id: string;
  meeting_url?: string;
}

/**
 * Where meetings get a conference link. Implementations must honour `idempotency_key`: the
 * same key returns the same event, so a retry after a lost answer creates nothing new.
 * Failures are thrown as `ToolFailure` with one of the seed's error codes.
 */
export interface CalendarProvider {
  /** The provider family for a link type ("google", "zoom"…), the circuit breaker's key. */
  providerFor(linkType: MeetingLinkType): string;
  createEvent(req: CalendarEventRequest): Promise<CalendarEventResult>;
}

export const PROVIDER_OF: Record<MeetingLinkType, string> = {
  google_meet: "google",
  zoom: "zoom",
  teams: "microsoft",
  phone: "phone",
  in_person: "in_person",
};

/** Letters only: provider URLs must not contain digit runs a PII scanner reads as phone numbers. */
function letters(seed: string, n: number): string {
  const h = createHash("sha256").update(seed).digest();
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + (h[i % h.length]! % 26));
  return s;
}

/**
 * The built-in provider: no network, deterministic links derived from the idempotency key, so
 * `npm start` works offline and a retried call yields the same event.
 */
export function createLocalCalendarProvider(): CalendarProvider {
  return {
    providerFor: (t) => PROVIDER_OF[t],
    async createEvent(req) {
      const code = letters(`${req.tenant_id}|${req.idempotency_key}`, 10);
      const url =
        req.link_type === "google_meet"
          ? `https://meet.google.com/${code.slice(0, 3)}-${code.slice(3, 7)}-${code.slice(7, 10)}`
          : req.link_type === "zoom"
            ? `https://zoom.us/my/${code}`
            : req.link_type === "teams"
              ? `https://teams.microsoft.com/l/meetup-join/${code}`
              : undefined;
      return { provider_event_id: `cal_${code}`, ...(url ? { meeting_url: url } : {}) };
    },
  };
}

const MESSAGES: Record<ToolErrorCode, string> = {
  PROVIDER_TIMEOUT: "Calendar provider didn’t respond in time.",
  PROVIDER_RATE_LIMIT: "Calendar provider is rate limiting requests.",
  PROVIDER_AUTH_REQUIRED: "Calendar account not connected.",
  INVALID_INPUT: "Calendar provider refused the details.",
  PROVIDER_UNAVAILABLE: "Calendar provider is unavailable.",
  UNKNOWN: "Calendar provider failed unexpectedly.",
};

/**
 * A provider that fails on cue: each call takes the next step of the script ("ok" or an error
 * code), repeating the last step when the script runs out. Used by tests and demos of the
 * failure path.
 */
export function createScriptedCalendarProvider(script: Array<ToolErrorCode | "ok">, inner = createLocalCalendarProvider()): CalendarProvider & { calls: CalendarEventRequest[] } {
  const calls: CalendarEventRequest[] = [];
  return {
    calls,
    providerFor: inner.providerFor,
    async createEvent(req) {
      calls.push(req);
      const step = script[Math.min(calls.length - 1, script.length - 1)] ?? "ok";
      if (step === "ok") return inner.createEvent(req);
      throw new ToolFailure(step, MESSAGES[step], step === "PROVIDER_RATE_LIMIT" ? 30 : undefined);
    },
  };
}
