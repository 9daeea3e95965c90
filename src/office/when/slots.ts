import { Temporal } from "temporal-polyfill";
import type { TWhen } from "../../../contracts/when.js";
import { minutesOf } from "./parse.js";

/** A meeting's place in time, epoch ms, end exclusive. */
export interface Slot {
  start: number;
  end: number;
}

export interface PickSlotOptions {
  durationMinutes: number;
  /** Epoch ms; nothing is booked in the past. */
  now: number;
  /** Times the organizer is taken (their calendar), epoch ms. */
  busy?: Slot[];
  /** A window's first free slot starts at least this long from now (an exact start needs only to be ahead). */
  leadMinutes?: number;
  /** Candidate starts are this far apart, counted from the window's opening time. */
  stepMinutes?: number;
}

/** How many days a window may span; longer ones are cut here. */
const MAX_DAYS = 62;

/** The wall-clock `time` on `date` in `timezone` as an instant; a time skipped by a DST change moves forward, as calendars do. */
function instantAt(date: Temporal.PlainDate, minutes: number, timezone: string): number {
  const time = Temporal.PlainTime.from({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
  return date.toZonedDateTime({ timeZone: timezone, plainTime: time }).epochMilliseconds;
}

function dates(when: TWhen): Temporal.PlainDate[] {
  const out: Temporal.PlainDate[] = [];
  const last = Temporal.PlainDate.from(when.end_date);
  for (
    let d = Temporal.PlainDate.from(when.start_date);
    Temporal.PlainDate.compare(d, last) <= 0 && out.length < MAX_DAYS;
    d = d.add({ days: 1 })
  ) {
    if (!when.weekdays || when.weekdays.includes(d.dayOfWeek)) out.push(d);
  }
  return out;
}

/**
 * The first slot of `durationMinutes` inside the window that is ahead of now and clear of busy
 * times, or null. Starts are walked on the wall clock of the window's zone, so "14:00" is 14:00
 * there on every day, whatever the offset that day; the length is exact elapsed time.
 */
export function pickSlot(when: TWhen, opts: PickSlotOptions): Slot | null {
  const length = opts.durationMinutes * 60_000;
  const step = Math.max(5, opts.stepMinutes ?? 30);
  const earliest = opts.now + (when.exact_start ? 0 : (opts.leadMinutes ?? 60) * 60_000);
  const busy = opts.busy ?? [];
  const from = minutesOf(when.from_time);
  const to = minutesOf(when.to_time);
  for (const date of dates(when)) {
    const closes = instantAt(date, to, when.timezone);
    for (let m = from; when.exact_start ? m === from : m + opts.durationMinutes <= to; m += step) {
      const start = instantAt(date, m, when.timezone);
      const end = start + length;
      if (!when.exact_start && end > closes) break;
      if (start < earliest) continue;
      if (busy.some((b) => b.start < end && start < b.end)) continue;
      return { start, end };
    }
  }
  return null;
}

/** The instants the window's days cover (first midnight to the midnight after the last day), for a busy-time lookup. */
export function windowBounds(when: TWhen): Slot {
  const first = Temporal.PlainDate.from(when.start_date);
  const days = dates(when);
  const last = days.at(-1) ?? first;
  return {
    start: first.toZonedDateTime({ timeZone: when.timezone }).epochMilliseconds,
    end: last.add({ days: 1 }).toZonedDateTime({ timeZone: when.timezone }).epochMilliseconds,
  };
}
