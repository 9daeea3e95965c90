import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { buildInviteIcs, parseWhen, pickSlot } from "../../../src/office/when/index.js";

/**
 * Phrasings × reference moments × zones → the exact UTC instant a 30-minute meeting is booked
 * at (the first free slot, at least an hour ahead for a window, exactly the time asked for an
 * exact start). Each instant is worked out by hand from the zone rules of the day: Lisbon
 * changes on 29 Mar / 25 Oct 2026, New York on 8 Mar / 1 Nov 2026, Sydney on 5 Apr / 4 Oct 2026,
 * Kolkata never. Each is then read back from the .ics with ical.js.
 */
const CASES: Array<[zone: string, asked: string, words: string, start: string]> = [
  // Europe/Lisbon (UTC+0 in winter, +1 in summer)
  ["Europe/Lisbon", "2025-12-20T10:00:00Z", "Jan 5 at 3pm", "2026-01-05T15:00:00Z"],
  ["Europe/Lisbon", "2026-03-27T12:00:00Z", "next Tuesday at 10am", "2026-03-31T09:00:00Z"],
  ["Europe/Lisbon", "2026-03-28T20:00:00Z", "tomorrow morning", "2026-03-29T08:00:00Z"],
  // 01:30 does not exist on 29 Mar (01:00 → 02:00): moved forward to 02:30 summer time.
  ["Europe/Lisbon", "2026-03-28T20:00:00Z", "tomorrow at 1:30am", "2026-03-29T01:30:00Z"],
  ["Europe/Lisbon", "2026-10-23T09:00:00Z", "Monday at 9", "2026-10-26T09:00:00Z"],
  // 01:30 happens twice on 25 Oct: the first (summer time) is taken.
  ["Europe/Lisbon", "2026-10-24T18:00:00Z", "tomorrow at 1:30am", "2026-10-25T00:30:00Z"],
  ["Europe/Lisbon", "2026-11-24T10:00:00Z", "the 31st", "2026-12-31T09:00:00Z"],
  ["Europe/Lisbon", "2026-12-30T16:00:00Z", "next week", "2027-01-04T09:00:00Z"],
  ["Europe/Lisbon", "2026-12-31T23:30:00Z", "tomorrow afternoon", "2027-01-01T13:00:00Z"],
  ["Europe/Lisbon", "2026-11-24T10:00:00Z", "March 30 at 9am", "2027-03-30T08:00:00Z"],
  ["Europe/Lisbon", "2026-11-24T10:00:00Z", "tonight at 8", "2026-11-24T20:00:00Z"],
  ["Europe/Lisbon", "2026-11-24T10:00:00Z", "2pm to 3:30pm on Thursday", "2026-11-26T14:00:00Z"],
  ["Europe/Lisbon", "2026-11-24T10:00:00Z", "sometime in January", "2027-01-01T09:00:00Z"],
  ["Europe/Lisbon", "2026-11-24T10:00:00Z", "Mon-Fri 8am-10am next week", "2026-11-30T08:00:00Z"],
  ["Europe/Lisbon", "2026-11-24T10:00:00Z", "5 January 15:00", "2027-01-05T15:00:00Z"],
  ["Europe/Lisbon", "2026-11-24T10:00:00Z", "1/15 at 10am", "2027-01-15T10:00:00Z"],
  // America/New_York (UTC−5 in winter, −4 in summer)
  ["America/New_York", "2026-03-06T15:00:00Z", "Monday at 9am", "2026-03-09T13:00:00Z"],
  // 02:30 does not exist on 8 Mar (02:00 → 03:00).
  ["America/New_York", "2026-03-07T15:00:00Z", "tomorrow at 2:30am", "2026-03-08T07:30:00Z"],
  ["America/New_York", "2026-03-07T15:00:00Z", "tomorrow at noon", "2026-03-08T16:00:00Z"],
  ["America/New_York", "2026-10-30T14:00:00Z", "next Tuesday 2-4pm", "2026-11-03T19:00:00Z"],
  // 01:30 happens twice on 1 Nov: the first (daylight time) is taken.
  ["America/New_York", "2026-10-31T14:00:00Z", "tomorrow at 1:30am", "2026-11-01T05:30:00Z"],
  ["America/New_York", "2026-12-20T15:00:00Z", "Jan 5 at 3pm", "2027-01-05T20:00:00Z"],
  ["America/New_York", "2026-12-31T15:00:00Z", "Tue–Thu, 14:00–17:00", "2026-12-31T19:00:00Z"],
  ["America/New_York", "2026-11-24T15:00:00Z", "this afternoon", "2026-11-24T18:00:00Z"],
  ["America/New_York", "2026-11-24T15:00:00Z", "in 3 days at 11:30", "2026-11-27T16:30:00Z"],
  // Asia/Kolkata (UTC+5:30 all year)
  ["Asia/Kolkata", "2025-12-20T10:00:00Z", "Jan 5 at 3pm", "2026-01-05T09:30:00Z"],
  // Still 31 Dec in UTC, already 1 Jan in Kolkata: "tomorrow" is 2 Jan.
  ["Asia/Kolkata", "2026-12-31T19:00:00Z", "tomorrow at 10", "2027-01-02T04:30:00Z"],
  ["Asia/Kolkata", "2026-11-24T04:30:00Z", "today at 4:30pm", "2026-11-24T11:00:00Z"],
  ["Asia/Kolkata", "2026-11-24T04:30:00Z", "weekdays 10-12", "2026-11-24T05:30:00Z"],
  ["Asia/Kolkata", "2026-11-24T04:30:00Z", "on the 3rd at 15:30", "2026-12-03T10:00:00Z"],
  ["Asia/Kolkata", "2026-11-24T04:30:00Z", "next Friday morning", "2026-12-04T03:30:00Z"],
  // A zone named in the words wins over the person's own.
  ["Asia/Kolkata", "2026-11-24T04:30:00Z", "Friday 2-4pm Sydney time", "2026-11-27T03:00:00Z"],
  // Australia/Sydney (UTC+11 in summer, +10 in winter)
  ["Australia/Sydney", "2026-04-03T01:00:00Z", "Monday at 9am", "2026-04-05T23:00:00Z"],
  // 02:30 happens twice on 5 Apr: the first (daylight time) is taken.
  ["Australia/Sydney", "2026-04-04T01:00:00Z", "tomorrow at 2:30am", "2026-04-04T15:30:00Z"],
  // 02:30 does not exist on 4 Oct (02:00 → 03:00).
  ["Australia/Sydney", "2026-10-02T01:00:00Z", "Sunday at 2:30am", "2026-10-03T16:30:00Z"],
  ["Australia/Sydney", "2026-10-02T01:00:00Z", "next week", "2026-10-04T22:00:00Z"],
  ["Australia/Sydney", "2025-12-31T14:30:00Z", "tomorrow at 10", "2026-01-01T23:00:00Z"],
  ["Australia/Sydney", "2025-12-20T10:00:00Z", "Jan 5 at 3pm", "2026-01-05T04:00:00Z"],
  ["Australia/Sydney", "2026-11-24T04:30:00Z", "the week after next", "2026-12-06T22:00:00Z"],
  ["Australia/Sydney", "2026-11-24T04:30:00Z", "between 2 and 4pm tomorrow", "2026-11-25T03:00:00Z"],
  ["Australia/Sydney", "2026-11-24T04:30:00Z", "Jan 5 at 3pm EST", "2027-01-05T20:00:00Z"],
];

describe("meeting times: words → window → slot → .ics, in the asker's zone", () => {
  it.each(CASES)("%s, asked %s: “%s” → %s", (zone, asked, words, start) => {
    const now = Date.parse(asked);
    const when = parseWhen(words, { now, timezone: zone });
    expect(when).not.toBeNull();
    const slot = pickSlot(when!, { durationMinutes: 30, now });
    expect(slot && new Date(slot.start).toISOString()).toBe(start.replace("Z", ".000Z"));
    expect(slot!.end - slot!.start).toBe(30 * 60_000);

    const ics = buildInviteIcs({
      uid: "evt-1@test",
      stamp: now,
      start: slot!.start,
      end: slot!.end,
      timezone: when!.timezone,
      summary: words,
      attendees: [{ name: "Maria", email: "maria@acme.com" }],
      method: "REQUEST",
      organizer: { name: "Office", email: "office@acme.com" },
    });
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent("vevent")!);
    expect(event.startDate.toJSDate().toISOString()).toBe(new Date(slot!.start).toISOString());
    expect(event.endDate.toJSDate().toISOString()).toBe(new Date(slot!.end).toISOString());
    expect(event.uid).toBe("evt-1@test");
  });

  it("has at least 30 phrasings, every zone, both DST changes of each zone that has them", () => {
    expect(new Set(CASES.map((c) => c[2])).size).toBeGreaterThanOrEqual(30);
    expect(new Set(CASES.map((c) => c[0]))).toEqual(
      new Set(["Europe/Lisbon", "America/New_York", "Asia/Kolkata", "Australia/Sydney"]),
    );
  });

  it.each([
    "Schedule a 30 min call with Maria",
    "call Maria now",
    "Send invoice 123 to ACME",
    "a 45-minute meeting",
    "rooms 12 and 14",
    "+351 912-345-678",
    "",
  ])("finds no time in “%s”", (words) => {
    expect(parseWhen(words, { now: Date.parse("2026-11-24T10:00:00Z"), timezone: "Europe/Lisbon" })).toBeNull();
  });
});
