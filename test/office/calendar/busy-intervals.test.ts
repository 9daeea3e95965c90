import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { busyIntervals } from "../../../src/office/calendar/busy-intervals.js";

const UTC = (s: string) => Date.parse(s);
const cal = (...body: string[][]) =>
  `${["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN", ...body.flat(), "END:VCALENDAR"].join("\r\n")}\r\n`;
const vevent = (...lines: string[]) => ["BEGIN:VEVENT", "DTSTAMP:20250101T000000Z", ...lines, "END:VEVENT"];
const NEW_YORK = [
  "BEGIN:VTIMEZONE",
  "TZID:America/New_York",
  "BEGIN:STANDARD",
  "DTSTART:19701101T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
  "TZOFFSETFROM:-0400",
  "TZOFFSETTO:-0500",
  "END:STANDARD",
  "BEGIN:DAYLIGHT",
  "DTSTART:19700308T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
  "TZOFFSETFROM:-0500",
  "TZOFFSETTO:-0400",
  "END:DAYLIGHT",
  "END:VTIMEZONE",
];
const span = (a: string, b: string) => ({ start: UTC(a), end: UTC(b) });

describe("busyIntervals", () => {
  it("expands a series in its VTIMEZONE across DST, with EXDATE, a moved and a cancelled instance", () => {
    const series = cal(
      NEW_YORK,
      vevent(
        "UID:s",
        "DTSTART;TZID=America/New_York:20300301T090000",
        "DTEND;TZID=America/New_York:20300301T100000",
        "RRULE:FREQ=WEEKLY;COUNT=6",
        "EXDATE;TZID=America/New_York:20300315T090000",
      ),
      vevent(
        "UID:s",
        "RECURRENCE-ID;TZID=America/New_York:20300322T090000",
        "DTSTART;TZID=America/New_York:20300322T160000",
        "DTEND;TZID=America/New_York:20300322T170000",
      ),
      vevent(
        "UID:s",
        "RECURRENCE-ID;TZID=America/New_York:20300329T090000",
        "DTSTART;TZID=America/New_York:20300329T090000",
        "DTEND;TZID=America/New_York:20300329T100000",
        "STATUS:CANCELLED",
      ),
    );
    expect(busyIntervals([series], UTC("2030-03-01T00:00:00Z"), UTC("2030-04-30T00:00:00Z"), "UTC")).toEqual([
      span("2030-03-01T14:00:00Z", "2030-03-01T15:00:00Z"),
      span("2030-03-08T14:00:00Z", "2030-03-08T15:00:00Z"),
      span("2030-03-22T20:00:00Z", "2030-03-22T21:00:00Z"), // after the switch to EDT, moved to 16:00
      span("2030-04-05T13:00:00Z", "2030-04-05T14:00:00Z"),
    ]);
    expect(ICAL.TimezoneService.has("America/New_York")).toBe(false); // nothing leaks into the registry
  });

  it("reads all-day and floating events in the owner's zone, unknown TZIDs too", () => {
    const objects = [
      cal(vevent("UID:a", "DTSTART;VALUE=DATE:20300114", "DTEND;VALUE=DATE:20300115")),
      cal(vevent("UID:f", "DTSTART:20300114T090000", "DTEND:20300114T093000")),
      cal(
        vevent(
          "UID:u",
          "DTSTART;TZID=Nowhere Standard Time:20300114T120000",
          "DTEND;TZID=Nowhere Standard Time:20300114T123000",
        ),
      ),
      // ical-generator's way: an IANA TZID with no VTIMEZONE in the object.
      cal(
        vevent("UID:n", "DTSTART;TZID=America/New_York:20300114T090000", "DTEND;TZID=America/New_York:20300114T100000"),
      ),
    ];
    expect(busyIntervals(objects, UTC("2030-01-13T00:00:00Z"), UTC("2030-01-16T00:00:00Z"), "Europe/Berlin")).toEqual([
      span("2030-01-13T23:00:00Z", "2030-01-14T23:00:00Z"),
      span("2030-01-14T08:00:00Z", "2030-01-14T08:30:00Z"),
      span("2030-01-14T11:00:00Z", "2030-01-14T11:30:00Z"),
      span("2030-01-14T14:00:00Z", "2030-01-14T15:00:00Z"),
    ]);
  });

  it("keeps events overlapping an edge unclipped, and drops zero-length, outside and broken ones", () => {
    const objects = [
      cal(vevent("UID:edge", "DTSTART:20300113T230000Z", "DTEND:20300114T010000Z")),
      cal(vevent("UID:zero", "DTSTART:20300114T100000Z")),
      cal(vevent("UID:after", "DTSTART:20300115T000000Z", "DTEND:20300115T010000Z")),
      "BEGIN:VCALENDAR\r\nthis is not iCalendar",
      cal(vevent("UID:d", "DTSTART:20300114T120000Z", "DURATION:PT45M")),
    ];
    expect(busyIntervals(objects, UTC("2030-01-14T00:00:00Z"), UTC("2030-01-15T00:00:00Z"), "UTC")).toEqual([
      span("2030-01-13T23:00:00Z", "2030-01-14T01:00:00Z"),
      span("2030-01-14T12:00:00Z", "2030-01-14T12:45:00Z"),
    ]);
  });

  it("counts an invitation to one instance that arrives without its series", () => {
    const orphan = cal(
      vevent("UID:o", "RECURRENCE-ID:20300114T090000Z", "DTSTART:20300114T100000Z", "DTEND:20300114T110000Z"),
    );
    expect(busyIntervals([orphan], UTC("2030-01-14T00:00:00Z"), UTC("2030-01-15T00:00:00Z"), "UTC")).toEqual([
      span("2030-01-14T10:00:00Z", "2030-01-14T11:00:00Z"),
    ]);
  });

  it("walks a long daily series quickly and finds an instance moved in from beyond the range", () => {
    const series = cal(
      vevent("UID:d", "DTSTART:20100101T080000Z", "DTEND:20100101T081500Z", "RRULE:FREQ=DAILY"),
      vevent("UID:d", "RECURRENCE-ID:20300301T080000Z", "DTSTART:20300114T170000Z", "DTEND:20300114T180000Z"),
    );
    // CPU time, not wall time: a busy machine stretches the second but not the first.
    const cpu0 = process.cpuUsage();
    expect(busyIntervals([series], UTC("2030-01-14T00:00:00Z"), UTC("2030-01-15T00:00:00Z"), "UTC")).toEqual([
      span("2030-01-14T08:00:00Z", "2030-01-14T08:15:00Z"),
      span("2030-01-14T17:00:00Z", "2030-01-14T18:00:00Z"),
    ]);
    const cpu = process.cpuUsage(cpu0);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(3_000);
  });
});
