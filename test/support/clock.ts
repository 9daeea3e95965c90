import type { Clock } from "../../src/shared/clock.js";

/**
 * Tests own their clock. A server under test runs on a clock that starts at a stated instant and
 * then moves at the real pace (timers are real timers), so retries, TTLs and streams behave as in
 * production while every date the server reads — "today", "tomorrow", a weekday, a zone's offset —
 * is the stated one, whatever day the suite happens to run on (or whatever `faketime` says).
 */

/** The instant a test server starts at unless a test states another: a Wednesday morning in June. */
export const DEFAULT_INSTANT = "2026-06-10T09:00:00.000Z";

/**
 * The awkward instants date-sensitive tests also run at: weekends in three zones, the nights
 * around each daylight-saving change in Europe and the US, the last half hour of a year and a
 * leap day. Each names the local moment it stands for and the zone of the person living it.
 */
export const AWKWARD_INSTANTS = [
  { name: "Friday 21:00 in Lisbon", zone: "Europe/Lisbon", iso: "2026-11-27T21:00:00.000Z" },
  { name: "Saturday 10:00 in Lisbon", zone: "Europe/Lisbon", iso: "2026-11-28T10:00:00.000Z" },
  { name: "Friday 20:00 in New York", zone: "America/New_York", iso: "2026-11-28T01:00:00.000Z" },
  { name: "Saturday 11:00 in New York", zone: "America/New_York", iso: "2026-11-28T16:00:00.000Z" },
  { name: "Friday 19:00 in Sydney", zone: "Australia/Sydney", iso: "2026-11-27T08:00:00.000Z" },
  { name: "Saturday 09:00 in Sydney", zone: "Australia/Sydney", iso: "2026-11-27T22:00:00.000Z" },
  {
    name: "the night before Europe's clocks go forward (Saturday 23:00 in Lisbon)",
    zone: "Europe/Lisbon",
    iso: "2027-03-27T23:00:00.000Z",
  },
  {
    name: "the night after Europe's clocks go forward (Sunday 23:00 in Lisbon)",
    zone: "Europe/Lisbon",
    iso: "2027-03-28T22:00:00.000Z",
  },
  {
    name: "the night before Europe's clocks go back (Saturday 23:00 in Lisbon)",
    zone: "Europe/Lisbon",
    iso: "2026-10-24T22:00:00.000Z",
  },
  {
    name: "the night after Europe's clocks go back (Sunday 23:00 in Lisbon)",
    zone: "Europe/Lisbon",
    iso: "2026-10-25T23:00:00.000Z",
  },
  {
    name: "the night before the US clocks go forward (Saturday 23:00 in New York)",
    zone: "America/New_York",
    iso: "2027-03-14T04:00:00.000Z",
  },
  {
    name: "the night after the US clocks go forward (Sunday 23:00 in New York)",
    zone: "America/New_York",
    iso: "2027-03-15T03:00:00.000Z",
  },
  {
    name: "the night before the US clocks go back (Saturday 23:00 in New York)",
    zone: "America/New_York",
    iso: "2026-11-01T03:00:00.000Z",
  },
  {
    name: "the night after the US clocks go back (Sunday 23:00 in New York)",
    zone: "America/New_York",
    iso: "2026-11-02T04:00:00.000Z",
  },
  { name: "31 December 23:30 in Lisbon", zone: "Europe/Lisbon", iso: "2026-12-31T23:30:00.000Z" },
  { name: "29 February 2028 at noon in Lisbon", zone: "Europe/Lisbon", iso: "2028-02-29T12:00:00.000Z" },
] as const;

let origin = performance.now();

/**
 * Called as each test file starts (test/support/file-start.ts): files that share a process
 * (one Vitest lane) each start their stated clocks at the stated instant.
 */
export function restartStatedClocks(): void {
  origin = performance.now();
}

/**
 * A clock that reads `iso` now and then moves with real time. All stated clocks made in one
 * test file share one origin, so a server restarted in the same test keeps moving forward.
 */
export function statedClock(iso: string = DEFAULT_INSTANT): Clock {
  const start = Date.parse(iso);
  if (Number.isNaN(start)) throw new TypeError(`not an instant: ${iso}`);
  const now = () => Math.floor(start + performance.now() - origin);
  return {
    now,
    iso: () => new Date(now()).toISOString(),
    setTimeout(fn, ms) {
      const t = setTimeout(fn, ms);
      t.unref?.();
      return { cancel: () => clearTimeout(t) };
    },
  };
}
