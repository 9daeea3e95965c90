import type { CalDavCalendar } from "../calendar/index.js";
import { ToolFailure, type ToolErrorCode } from "./tool.js";

const MESSAGES: Record<ToolErrorCode, string> = {
  PROVIDER_TIMEOUT: "Calendar server didn’t respond in time.",
  PROVIDER_RATE_LIMIT: "Calendar server is rate limiting requests.",
  PROVIDER_AUTH_REQUIRED: "Calendar sign-in was refused. Check CALDAV_USERNAME and CALDAV_PASSWORD.",
  INVALID_INPUT: "Calendar server refused the details.",
  PROVIDER_UNAVAILABLE: "Calendar server is unavailable.",
  UNKNOWN: "Calendar server failed unexpectedly.",
  CANCELLED: "The calendar write was cancelled.",
};

/**
 * A calendar that fails on cue, for tests and demos of the failure path: each write takes the
 * next step of the script ("ok" or an error code), repeating the last step when the script runs
 * out. Writes that succeed are kept in memory (by UID, so a repeated write creates nothing).
 * Real calendars are CalDAV servers (src/office/calendar); this stands in only where a test
 * needs a timeout or a rate limit on demand.
 */
export function createScriptedCalendarProvider(
  script: Array<ToolErrorCode | "ok">,
): CalDavCalendar & { calls: Array<{ uid: string; ics: string }>; events: Map<string, string> } {
  const calls: Array<{ uid: string; ics: string }> = [];
  const events = new Map<string, string>();
  return {
    calls,
    events,
    async busy() {
      return [];
    },
    async put(uid, ics) {
      calls.push({ uid, ics });
      const step = script[Math.min(calls.length - 1, script.length - 1)] ?? "ok";
      if (step !== "ok") throw new ToolFailure(step, MESSAGES[step], step === "PROVIDER_RATE_LIMIT" ? 30 : undefined);
      const created = !events.has(uid);
      if (created) events.set(uid, ics);
      return { url: `memory:${uid}`, created };
    },
    async get(uid) {
      const ics = events.get(uid);
      return ics ? { url: `memory:${uid}`, ics } : null;
    },
    async replace(uid, ics) {
      if (!events.has(uid)) throw new ToolFailure("INVALID_INPUT", "The event is not in the calendar.");
      events.set(uid, ics);
      return { url: `memory:${uid}` };
    },
    async remove(uid) {
      return events.delete(uid);
    },
    async describe() {
      return { url: "memory:", displayName: "Scripted test calendar" };
    },
  };
}
