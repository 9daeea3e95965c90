import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";

/** A stretch of time the calendar's owner is taken, in epoch ms, end exclusive. */
export interface BusyInterval {
  start: number;
  end: number;
}

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalEvent = InstanceType<typeof ICAL.Event>;
type IcalComponent = InstanceType<typeof ICAL.Component>;

// A rule like FREQ=MINUTELY started years ago must not stall a booking; past this many
// occurrences the rest of the series is ignored.
const MAX_OCCURRENCES = 50_000;
// Occurrences are walked in wall-clock order, which can differ from instant order by up to
// a day of UTC offsets; walking this far past the range keeps every overlapping one.
const SLACK_MS = 36 * 3_600_000;

/**
 * The busy intervals overlapping [from, to) in calendar objects (iCalendar texts), sorted by
 * start, neither merged nor clipped. Recurring events are expanded here (EXDATE and moved or
 * cancelled instances included) because servers differ in what they expand: Radicale 3.1
 * ignores CalDAV `expand`. Cancelled and TRANSP:TRANSPARENT events take no time. Times with a
 * TZID use the object's VTIMEZONE, or the IANA zone of that name when the object has none
 * (ical-generator writes such objects); floating times and all-day events are read in
 * `floatingZone`. An object that does not parse is skipped: one broken event written by some
 * other client must not stop every booking.
 */
export function busyIntervals(objects: string[], from: number, to: number, floatingZone: string): BusyInterval[] {
  const out: BusyInterval[] = [];
  for (const text of objects) {
    let root: IcalComponent;
    try {
      root = new ICAL.Component(ICAL.parse(text));
    } catch {
      continue;
    }
    withTimezones(root, () => {
      for (const interval of objectIntervals(root, from, to, floatingZone)) out.push(interval);
    });
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * ical.js resolves TZIDs through a process-wide registry; the object's own VTIMEZONEs are
 * registered only while it is read, so one object's definitions never leak into another's.
 */
function withTimezones(root: IcalComponent, read: () => void): void {
  const added: string[] = [];
  for (const vtz of root.getAllSubcomponents("vtimezone")) {
    const tzid = vtz.getFirstPropertyValue("tzid");
    if (typeof tzid !== "string" || ICAL.TimezoneService.has(tzid)) continue;
    ICAL.TimezoneService.register(vtz);
    added.push(tzid);
  }
  try {
    read();
  } finally {
    for (const tzid of added) ICAL.TimezoneService.remove(tzid);
  }
}

function objectIntervals(root: IcalComponent, from: number, to: number, zone: string): BusyInterval[] {
  const vevents = root.name === "vevent" ? [root] : root.getAllSubcomponents("vevent");
  const masters = vevents.filter((v) => !v.hasProperty("recurrence-id"));
  const exceptions = vevents.filter((v) => v.hasProperty("recurrence-id"));
  const out: BusyInterval[] = [];
  const keep = (item: IcalEvent, start: IcalTime, end: IcalTime, recurring: boolean) => {
    if (isFree(item.component)) return;
    const interval = {
      start: instant(start, tzidOf(item, "dtstart"), zone),
      end: instant(end, tzidOf(item, recurring ? "dtstart" : "dtend"), zone),
    };
    if (interval.end > interval.start && interval.start < to && interval.end > from) out.push(interval);
  };
  const orphans = new Set(exceptions);
  for (const master of masters) {
    const event = new ICAL.Event(master);
    for (const ex of exceptions) {
      if (ex.getFirstPropertyValue("uid") !== event.uid) continue;
      event.relateException(ex);
      orphans.delete(ex);
    }
    if (!event.isRecurring()) {
      keep(event, event.startDate, event.endDate, false);
      continue;
    }
    const it = event.iterator();
    let stoppedAt: number | undefined;
    for (let n = it.next(), count = 0; n && count < MAX_OCCURRENCES; n = it.next(), count++) {
      const at = instant(n, tzidOf(event, "dtstart"), zone);
      if (at - SLACK_MS >= to) {
        stoppedAt = at;
        break;
      }
      const d = event.getOccurrenceDetails(n);
      keep(d.item, d.startDate, d.endDate, d.item === event);
    }
    // An instance moved from beyond the walk's end into the range is not reached by the walk.
    for (const ex of Object.values(event.exceptions)) {
      if (stoppedAt !== undefined && instant(ex.recurrenceId, tzidOf(ex, "recurrence-id"), zone) >= stoppedAt)
        keep(ex, ex.startDate, ex.endDate, false);
    }
  }
  // An invitation to a single instance arrives without its series.
  for (const ex of orphans) {
    const event = new ICAL.Event(ex);
    keep(event, event.startDate, event.endDate, false);
  }
  return out;
}

function isFree(vevent: IcalComponent): boolean {
  const status = String(vevent.getFirstPropertyValue("status") ?? "").toUpperCase();
  const transp = String(vevent.getFirstPropertyValue("transp") ?? "").toUpperCase();
  return status === "CANCELLED" || transp === "TRANSPARENT";
}

function tzidOf(item: IcalEvent, prop: "dtstart" | "dtend" | "recurrence-id"): string | undefined {
  const p = item.component.getFirstProperty(prop) ?? item.component.getFirstProperty("dtstart");
  const tzid = p?.getParameter("tzid");
  return typeof tzid === "string" ? tzid : undefined;
}

/**
 * ical.js knows UTC and registered zones; every other time it treats as floating (wall clock
 * read as UTC), so those are placed with Temporal in the named zone, or in `zone`.
 */
function instant(t: IcalTime, tzid: string | undefined, zone: string): number {
  const tz = t.zone?.tzid;
  if (!t.isDate && tz && tz !== "floating") return t.toUnixTime() * 1000;
  const wall = Temporal.PlainDateTime.from({
    year: t.year,
    month: t.month,
    day: t.day,
    hour: t.hour,
    minute: t.minute,
    second: t.second,
  });
  const named = !t.isDate && tzid ? tzid : undefined;
  try {
    if (named) return wall.toZonedDateTime(named).epochMilliseconds;
  } catch {
    // Not an IANA name and not defined in the object: the best guess left is the owner's zone.
  }
  return wall.toZonedDateTime(zone).epochMilliseconds;
}
