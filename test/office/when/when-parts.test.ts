import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import {
  buildInviteIcs,
  describeWhen,
  formatSlot,
  parseWhen,
  pickSlot,
  windowBounds,
} from "../../../src/office/when/index.js";

const NOW = Date.parse("2026-11-24T10:00:00Z"); // Tue, Lisbon on UTC+0
const read = (words: string, timezone = "Europe/Lisbon", now = NOW) => parseWhen(words, { now, timezone })!;

describe("parseWhen keeps the window as data", () => {
  it("a weekday range over the coming two weeks, a daily range, no exact start", () => {
    expect(read("Tue–Thu, 14:00–17:00")).toEqual({
      timezone: "Europe/Lisbon",
      start_date: "2026-11-24",
      end_date: "2026-12-07",
      weekdays: [2, 3, 4],
      from_time: "14:00",
      to_time: "17:00",
      exact_start: false,
      asked_at: "2026-11-24T10:00:00.000Z",
      source: "Tue–Thu, 14:00–17:00",
    });
  });

  it("an exact time is exact; a day alone is working hours; next week is its working days", () => {
    expect(read("Jan 5 at 3pm")).toMatchObject({
      start_date: "2027-01-05",
      end_date: "2027-01-05",
      from_time: "15:00",
      exact_start: true,
    });
    expect(read("Friday")).toMatchObject({
      start_date: "2026-11-27",
      from_time: "09:00",
      to_time: "17:00",
      exact_start: false,
    });
    expect(read("next week")).toMatchObject({
      start_date: "2026-11-30",
      end_date: "2026-12-06",
      weekdays: [1, 2, 3, 4, 5],
    });
    expect(read("a weekend afternoon")).toMatchObject({ weekdays: [6, 7], from_time: "13:00", to_time: "17:00" });
  });

  it("a zone in the words replaces the person's; an unknown zone falls back to UTC", () => {
    expect(read("tomorrow at 9 New York time").timezone).toBe("America/New_York");
    expect(read("tomorrow at 9", "Mars/Olympus").timezone).toBe("UTC");
  });

  it("says the window back in absolute words", () => {
    expect(describeWhen(read("Jan 5 at 3pm"))).toBe("Tue 5 Jan 2027, 15:00 (Europe/Lisbon)");
    expect(describeWhen(read("Tue–Thu, 14:00–17:00"))).toBe(
      "Tue 24 Nov 2026 – Mon 7 Dec 2026 (Tue–Thu), 14:00–17:00 (Europe/Lisbon)",
    );
    expect(describeWhen(read("Sat or Mon morning"))).toMatch(/^Sat 28 Nov 2026, 09:00–12:00/);
  });
});

describe("pickSlot", () => {
  const window = read("Tue–Thu, 14:00–17:00");

  it("skips busy time and keeps whole slots inside the daily window", () => {
    const busy = [{ start: Date.parse("2026-11-24T14:00:00Z"), end: Date.parse("2026-11-24T16:40:00Z") }];
    const s = pickSlot(window, { durationMinutes: 30, now: NOW, busy })!;
    // 16:30 overlaps the busy time; the next start is 17:00, which would end after the window.
    expect(new Date(s.start).toISOString()).toBe("2026-11-25T14:00:00.000Z");
    const long = pickSlot(window, { durationMinutes: 180, now: NOW, busy })!;
    expect(new Date(long.end).toISOString()).toBe("2026-11-25T17:00:00.000Z");
    expect(pickSlot(window, { durationMinutes: 181, now: NOW })).toBeNull();
  });

  it("books an exact start or nothing, and never in the past", () => {
    const exact = read("today at 10:30");
    expect(new Date(pickSlot(exact, { durationMinutes: 30, now: NOW })!.start).toISOString()).toBe(
      "2026-11-24T10:30:00.000Z",
    );
    expect(pickSlot(exact, { durationMinutes: 30, now: Date.parse("2026-11-24T10:31:00Z") })).toBeNull();
    const taken = [{ start: Date.parse("2026-11-24T10:00:00Z"), end: Date.parse("2026-11-24T11:00:00Z") }];
    expect(pickSlot(exact, { durationMinutes: 30, now: NOW, busy: taken })).toBeNull();
  });

  it("starts a window at least an hour ahead, on the step grid", () => {
    const today = read("today 9-17");
    expect(
      new Date(pickSlot(today, { durationMinutes: 30, now: Date.parse("2026-11-24T10:10:00Z") })!.start).toISOString(),
    ).toBe("2026-11-24T11:30:00.000Z");
  });

  it("looks up busy time over whole local days of the window", () => {
    const b = windowBounds(read("Jan 5 at 3pm", "Asia/Kolkata"));
    expect(new Date(b.start).toISOString()).toBe("2027-01-04T18:30:00.000Z");
    expect(new Date(b.end).toISOString()).toBe("2027-01-05T18:30:00.000Z");
  });
});

describe("formatSlot", () => {
  it("names the day, the 24-hour times and the zone; a slot over midnight names both days", () => {
    expect(formatSlot(Date.parse("2026-01-05T15:00:00Z"), Date.parse("2026-01-05T15:30:00Z"), "Europe/Lisbon")).toBe(
      "Mon 5 Jan 2026, 15:00–15:30 (Europe/Lisbon)",
    );
    expect(formatSlot(Date.parse("2026-12-31T23:30:00Z"), Date.parse("2027-01-01T00:30:00Z"), "UTC")).toBe(
      "Thu 31 Dec 2026, 23:30 – Fri 1 Jan 2027, 00:30 (UTC)",
    );
  });
});

describe("buildInviteIcs", () => {
  const base = {
    uid: "evt-9@logline",
    stamp: NOW,
    start: Date.parse("2027-01-05T15:00:00Z"),
    end: Date.parse("2027-01-05T15:30:00Z"),
    timezone: "Europe/Lisbon",
    summary: "Plan, review; ship — Reunião",
    description: "Join: https://meet.jit.si/abc",
    url: "https://meet.jit.si/abc",
    location: "https://meet.jit.si/abc",
    organizer: { name: "Ops: Bot", email: "office@acme.com" },
    attendees: [{ name: "Maria", email: "maria@acme.com" }],
  };

  it("an iMIP request: METHOD:REQUEST, organizer, attendee asked to reply, UTC times", () => {
    const ics = buildInviteIcs({ ...base, method: "REQUEST" });
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
    const cal = new ICAL.Component(ICAL.parse(ics));
    expect(cal.getFirstPropertyValue("method")).toBe("REQUEST");
    const ev = cal.getFirstSubcomponent("vevent")!;
    expect(ev.getFirstPropertyValue("summary")).toBe(base.summary);
    expect(ev.getFirstPropertyValue("organizer")).toBe("mailto:office@acme.com");
    const attendee = ev.getFirstProperty("attendee")!;
    expect(String(attendee.getFirstValue()).toLowerCase()).toBe("mailto:maria@acme.com");
    expect(attendee.getParameter("rsvp")).toBe("TRUE");
    expect(attendee.getParameter("partstat")).toBe("NEEDS-ACTION");
    expect(ics).toContain("DTSTART:20270105T150000Z");
    for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it("for a calendar store: no METHOD; without an organizer nobody is asked to reply", () => {
    const stored = buildInviteIcs({ ...base, method: null });
    expect(stored).not.toMatch(/^METHOD:/m);
    const file = buildInviteIcs({ ...base, organizer: undefined, method: "PUBLISH" });
    expect(file).toMatch(/^METHOD:PUBLISH/m);
    expect(file).not.toMatch(/RSVP=TRUE/);
  });
});
