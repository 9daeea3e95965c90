import { createDAVClient, type DAVCalendar } from "tsdav";
import { Temporal } from "temporal-polyfill";
import type { CalDavConfig } from "./settings.js";
import { ToolFailure } from "../tools/tool.js";
import { busyIntervals, type BusyInterval } from "./busy-intervals.js";
import { createGuard, toToolFailure, type Guard } from "./guarded-fetch.js";
import { objectName } from "./object-name.js";
import { displayNameOf, pickCalendar } from "./pick-calendar.js";

/**
 * The organizer's CalDAV calendar. Every method throws only `ToolFailure`, with a message safe
 * to show a person and to keep in the audit log (no password, no attendee address, no server
 * body).
 */
export interface CalDavCalendar {
  /** Busy intervals (epoch ms) overlapping [from, to): events of the calendar, recurring ones expanded; TRANSP:TRANSPARENT and CANCELLED events ignored. Sorted by start, not merged or clipped. */
  busy(from: number, to: number): Promise<BusyInterval[]>;
  /** Writes the event under a URL derived from its UID, in one request per call. Idempotent: writing the same UID again changes nothing and reports created: false (so does a retry after a lost answer). */
  put(uid: string, ics: string): Promise<{ url: string; created: boolean }>;
  /** The event at that UID, or null. */
  get(uid: string): Promise<{ url: string; ics: string; etag?: string } | null>;
  /** Overwrites the event at that UID (an answer's PARTSTAT, a new time); with `etag`, only if it is still that version. */
  replace(uid: string, ics: string, etag?: string): Promise<{ url: string }>;
  /** Deletes the event at that UID; true if it was there. */
  remove(uid: string): Promise<boolean>;
  /** The calendar written to, with a human name (for cards: "added to <name>"). */
  describe(): Promise<{ url: string; displayName: string }>;
}

export interface CalDavCalendarOptions {
  /** One deadline for all requests of one call (discovery included). Default 15000. */
  timeoutMs?: number;
  /** IANA zone that floating times and all-day events are read in. Default "UTC". */
  timeZone?: string;
}

type DavClient = Awaited<ReturnType<typeof createDAVClient>>;
interface Found {
  client: DavClient;
  calendar: DAVCalendar;
  displayName: string;
}

const withSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);
// CalDAV time-range wants UTC basic format; the end is rounded up so no busy second is lost.
const stamp = (ms: number, round: (x: number) => number) =>
  `${new Date(round(ms / 1000) * 1000).toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;

/**
 * A CalDAV calendar over tsdav with Basic auth. Nothing happens on the network until the first
 * call; the discovered calendar is then cached, and a failed discovery is tried again on the
 * next call. The calendar is `cfg.calendar` (display name, path or URL), else the first one
 * that holds events. Throws RangeError at once for an unknown `timeZone` (a wiring mistake).
 */
export function createCalDavCalendar(cfg: CalDavConfig, opts: CalDavCalendarOptions = {}): CalDavCalendar {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const timeZone = opts.timeZone ?? "UTC";
  Temporal.Now.zonedDateTimeISO(timeZone); // throws RangeError now rather than on the first booking
  // Built here rather than by tsdav: its Basic encoder rejects non-Latin-1 passwords, while
  // servers (Radicale included) decode credentials as UTF-8.
  const auth = { authorization: `Basic ${Buffer.from(`${cfg.username}:${cfg.password}`, "utf8").toString("base64")}` };
  let found: Promise<Found> | undefined;

  async function discover(guard: Guard): Promise<Found> {
    const client = await createDAVClient({
      serverUrl: cfg.url,
      credentials: {},
      authMethod: "Custom",
      authFunction: async () => auth,
    });
    let calendars: DAVCalendar[];
    let base: string;
    try {
      const account = await client.createAccount({
        account: { serverUrl: cfg.url, accountType: "caldav" },
        fetch: guard.fetch,
      });
      calendars = await client.fetchCalendars({ account, fetch: guard.fetch });
      base = account.rootUrl ?? cfg.url;
    } catch (err) {
      const failure = toToolFailure(err, guard, timeoutMs);
      if (failure.code !== "UNKNOWN") throw failure;
      // tsdav's own words ("cannot find homeUrl") mean the address is not a CalDAV account.
      throw new ToolFailure(
        "INVALID_INPUT",
        "No CalDAV account was found at CALDAV_URL. Check the address: the server's CalDAV root or your principal URL.",
      );
    }
    const calendar = pickCalendar(calendars, cfg.calendar, base);
    return { client, calendar: { ...calendar, url: withSlash(calendar.url) }, displayName: displayNameOf(calendar) };
  }

  function locate(guard: Guard): Promise<Found> {
    if (found) return found;
    const attempt = discover(guard);
    found = attempt;
    attempt.catch(() => {
      if (found === attempt) found = undefined;
    });
    return attempt;
  }

  /** Statuses the guard lets through but the operation did not expect. */
  function answerFailure(status: number): ToolFailure {
    if (status === 404 || status === 410 || status === 409) {
      found = undefined; // the calendar may have been deleted or renamed: look again next time
      return new ToolFailure(
        "INVALID_INPUT",
        `The calendar server refused the request (HTTP ${status}): the calendar chosen by CALDAV_CALENDAR may be gone, or holds this event under another name.`,
      );
    }
    if (status === 400 || status === 413 || status === 415 || status === 422)
      return new ToolFailure("INVALID_INPUT", `The calendar server refused the event data (HTTP ${status}).`);
    return new ToolFailure("UNKNOWN", `The calendar server answered unexpectedly (HTTP ${status}).`);
  }

  async function run<T>(op: (guard: Guard, at: Found) => Promise<T>): Promise<T> {
    const guard = createGuard(timeoutMs);
    try {
      return await op(guard, await locate(guard));
    } catch (err) {
      const failure = toToolFailure(err, guard, timeoutMs);
      // tsdav throws its own error (quoting the body) for a failed REPORT; the status tells more.
      if (failure.code === "UNKNOWN" && guard.lastStatus !== undefined && guard.lastStatus >= 400)
        throw answerFailure(guard.lastStatus);
      throw failure;
    }
  }

  const urlOf = (at: Found, uid: string) => new URL(objectName(uid), at.calendar.url).href;
  const checkUid = (uid: string) => {
    if (!uid.trim()) throw new ToolFailure("INVALID_INPUT", "A calendar event needs a UID.");
  };

  return {
    async busy(from, to) {
      if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from)
        throw new ToolFailure("INVALID_INPUT", "The time range to check for busy time is empty or invalid.");
      return run(async (guard, at) => {
        // One calendar-query with the data inline: the server filters by time range
        // (recurrences included), we expand, since Radicale 3.1 ignores `expand`.
        const responses = await at.client.calendarQuery({
          url: at.calendar.url,
          props: { "d:getetag": {}, "c:calendar-data": {} },
          filters: [
            {
              "comp-filter": {
                _attributes: { name: "VCALENDAR" },
                "comp-filter": {
                  _attributes: { name: "VEVENT" },
                  "time-range": { _attributes: { start: stamp(from, Math.floor), end: stamp(to, Math.ceil) } },
                },
              },
            },
          ],
          depth: "1",
          fetch: guard.fetch,
        });
        // tsdav answers [] for some failed queries; only a multistatus is an answer.
        if (guard.lastStatus !== 207) throw answerFailure(guard.lastStatus ?? 0);
        const texts = responses
          .map((r) => r.props?.calendarData)
          .map((d: unknown) => (typeof d === "string" ? d : (d as { _cdata?: unknown } | undefined)?._cdata));
        return busyIntervals(
          texts.filter((t): t is string => typeof t === "string"),
          from,
          to,
          timeZone,
        );
      });
    },

    async put(uid, ics) {
      checkUid(uid);
      return run(async (guard, at) => {
        // tsdav sends If-None-Match: *, so the server refuses to overwrite: a second write of
        // the same UID (a retry, or a replay) is a 412 and leaves the first event untouched.
        const res = await at.client.createCalendarObject({
          calendar: at.calendar,
          iCalString: ics,
          filename: objectName(uid),
          fetch: guard.fetch,
        });
        await res.body?.cancel().catch(() => undefined);
        if (res.ok) return { url: urlOf(at, uid), created: true };
        if (res.status === 412) return { url: urlOf(at, uid), created: false };
        throw answerFailure(res.status);
      });
    },

    async get(uid) {
      checkUid(uid);
      return run(async (guard, at) => {
        const url = urlOf(at, uid);
        const res = await guard.fetch(url, { headers: auth });
        if (res.status === 404 || res.status === 410) {
          await res.body?.cancel().catch(() => undefined);
          return null;
        }
        if (!res.ok) throw answerFailure(res.status);
        const etag = res.headers.get("etag");
        return { url, ics: await res.text(), ...(etag ? { etag } : {}) };
      });
    },

    async replace(uid, ics, etag) {
      checkUid(uid);
      return run(async (guard, at) => {
        const url = urlOf(at, uid);
        const res = await guard.fetch(url, {
          method: "PUT",
          headers: { ...auth, "content-type": "text/calendar; charset=utf-8", ...(etag ? { "if-match": etag } : {}) },
          body: ics,
        });
        await res.body?.cancel().catch(() => undefined);
        if (res.ok) return { url };
        if (res.status === 412)
          throw new ToolFailure(
            "PROVIDER_UNAVAILABLE",
            "The calendar event changed while it was being updated; trying again.",
          );
        throw answerFailure(res.status);
      });
    },

    async remove(uid) {
      checkUid(uid);
      return run(async (guard, at) => {
        const res = await guard.fetch(urlOf(at, uid), { method: "DELETE", headers: auth });
        await res.body?.cancel().catch(() => undefined);
        if (res.status === 404 || res.status === 410) return false;
        if (!res.ok) throw answerFailure(res.status);
        return true;
      });
    },

    async describe() {
      return run(async (_guard, at) => ({ url: at.calendar.url, displayName: at.displayName }));
    },
  };
}
