import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCalDavCalendar } from "../../../src/office/calendar/index.js";
import { ToolFailure } from "../../../src/office/tools/tool.js";
import { type Radicale, startRadicale } from "../../support/radicale.js";

const UTC = (s: string) => Date.parse(s);
const CRLF = (lines: string[]) => `${lines.join("\r\n")}\r\n`;

/** A one-event calendar object; `extra` lines go inside the VEVENT, `outer` before it. */
function ics(uid: string, start: string, end: string, extra: string[] = [], outer: string[] = []): string {
  return CRLF([
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//LogLine tests//EN",
    ...outer,
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20250101T000000Z",
    `DTSTART${start}`,
    `DTEND${end}`,
    "SUMMARY:Test",
    ...extra,
    "END:VEVENT",
    "END:VCALENDAR",
  ]);
}

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

async function failureOf(p: Promise<unknown>): Promise<ToolFailure> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolFailure);
  return err as ToolFailure;
}

/** The hrefs of the objects in a collection, read straight from the server. */
async function listObjects(server: Radicale, calendarUrl: string): Promise<string[]> {
  const res = await fetch(calendarUrl, {
    method: "PROPFIND",
    headers: {
      depth: "1",
      authorization: `Basic ${Buffer.from(`${server.username}:${server.password}`).toString("base64")}`,
    },
    body: `<?xml version="1.0"?><propfind xmlns="DAV:"><prop><getetag/></prop></propfind>`,
  });
  expect(res.status).toBe(207);
  return [...(await res.text()).matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map((m) => m[1]!);
}

describe("CalDAV calendar against Radicale", () => {
  let server: Radicale;
  const cfg = () => ({ url: server.url, username: server.username, password: server.password, calendar: "Work" });

  beforeAll(async () => {
    server = await startRadicale([
      { slug: "work", displayName: "Work" },
      { slug: "personal", displayName: "Personal" },
      { slug: "chores", displayName: "Chores", components: ["VTODO"] },
    ]);
  });
  afterAll(() => server?.stop());

  it("writes an event that the server holds at the right instant", async () => {
    const cal = createCalDavCalendar(cfg());
    expect(await cal.describe()).toEqual({ url: server.calendarUrls[0], displayName: "Work" });
    const uid = "meeting-1@logline.test";
    const put = await cal.put(
      uid,
      ics(uid, ";TZID=America/New_York:20300107T090000", ";TZID=America/New_York:20300107T093000", [], NEW_YORK),
    );
    expect(put.created).toBe(true);
    expect(put.url.startsWith(server.calendarUrls[0]!)).toBe(true);

    const got = await cal.get(uid);
    expect(got?.url).toBe(put.url);
    const root = new ICAL.Component(ICAL.parse(got!.ics));
    ICAL.TimezoneService.register(root.getFirstSubcomponent("vtimezone")!);
    const event = new ICAL.Event(root.getFirstSubcomponent("vevent")!);
    expect(event.uid).toBe(uid);
    expect(event.startDate.toUnixTime() * 1000).toBe(UTC("2030-01-07T14:00:00Z"));
    ICAL.TimezoneService.remove("America/New_York");
    expect(await cal.get("never-written")).toBeNull();
  });

  it("reports busy time, expands a weekly series and ignores free or cancelled events", async () => {
    const cal = createCalDavCalendar({ ...cfg(), calendar: "Personal" });
    await cal.put("busy-1", ics("busy-1", ":20300114T100000Z", ":20300114T110000Z"));
    // Written the way ical-generator writes a zone: a TZID without a VTIMEZONE.
    await cal.put(
      "weekly-1",
      ics("weekly-1", ";TZID=Europe/Berlin:20291203T140000", ";TZID=Europe/Berlin:20291203T150000", [
        "RRULE:FREQ=WEEKLY;BYDAY=MO",
      ]),
    );
    await cal.put("free-1", ics("free-1", ":20300114T150000Z", ":20300114T160000Z", ["TRANSP:TRANSPARENT"]));
    await cal.put("cancelled-1", ics("cancelled-1", ":20300114T160000Z", ":20300114T170000Z", ["STATUS:CANCELLED"]));
    await cal.put("tomorrow-1", ics("tomorrow-1", ":20300115T100000Z", ":20300115T110000Z"));

    expect(await cal.busy(UTC("2030-01-14T00:00:00Z"), UTC("2030-01-15T00:00:00Z"))).toEqual([
      { start: UTC("2030-01-14T10:00:00Z"), end: UTC("2030-01-14T11:00:00Z") },
      { start: UTC("2030-01-14T13:00:00Z"), end: UTC("2030-01-14T14:00:00Z") },
    ]);
    // Berlin is on summer time by April: the same 14:00 is 12:00 UTC.
    expect(await cal.busy(UTC("2030-04-01T00:00:00Z"), UTC("2030-04-02T00:00:00Z"))).toEqual([
      { start: UTC("2030-04-01T12:00:00Z"), end: UTC("2030-04-01T13:00:00Z") },
    ]);
    // Another calendar's events are not this one's busy time.
    expect(await createCalDavCalendar(cfg()).busy(UTC("2030-01-14T00:00:00Z"), UTC("2030-01-15T00:00:00Z"))).toEqual(
      [],
    );
  });

  it("a retried put of the same UID leaves exactly one event, unchanged", async () => {
    const cal = createCalDavCalendar(cfg());
    const uid = "retry/1@logline.test";
    const first = await cal.put(uid, ics(uid, ":20300201T100000Z", ":20300201T110000Z"));
    const before = await listObjects(server, server.calendarUrls[0]!);
    const again = await createCalDavCalendar(cfg()).put(uid, ics(uid, ":20300201T120000Z", ":20300201T130000Z"));
    expect(first.created).toBe(true);
    expect(again).toEqual({ url: first.url, created: false });
    const after = await listObjects(server, server.calendarUrls[0]!);
    expect(after.sort()).toEqual(before.sort());
    expect(after.filter((h) => first.url.endsWith(h))).toHaveLength(1);
    expect((await cal.get(uid))?.ics).toContain("DTSTART:20300201T100000Z");
  });

  it("refuses a wrong password as PROVIDER_AUTH_REQUIRED without echoing it", async () => {
    const failure = await failureOf(createCalDavCalendar({ ...cfg(), password: "wrong-secret" }).busy(0, 1));
    expect(failure.code).toBe("PROVIDER_AUTH_REQUIRED");
    expect(failure.message).toBe("Calendar sign-in was refused. Check CALDAV_USERNAME and CALDAV_PASSWORD.");
  });

  it("names CALDAV_CALENDAR when no calendar matches, and looks again on the next call", async () => {
    const cal = createCalDavCalendar({ ...cfg(), calendar: "Later" });
    const failure = await failureOf(cal.describe());
    expect(failure.code).toBe("INVALID_INPUT");
    expect(failure.message).toContain('CALDAV_CALENDAR "Later"');
    expect(failure.message).toContain('"Work"');
    expect(failure.message).not.toContain("Chores"); // a to-do list cannot hold meetings

    const mk = await fetch(new URL(`/${server.username}/later/`, server.url), {
      method: "MKCALENDAR",
      headers: { authorization: `Basic ${Buffer.from(`${server.username}:${server.password}`).toString("base64")}` },
      body: `<?xml version="1.0"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:displayname>Later</D:displayname></D:prop></D:set></C:mkcalendar>`,
    });
    expect(mk.status).toBe(201);
    expect((await cal.describe()).displayName).toBe("Later");
  });

  it("chooses a calendar by path or URL, and the first event calendar when none is named", async () => {
    const byPath = createCalDavCalendar({ ...cfg(), calendar: `/${server.username}/personal` });
    expect((await byPath.describe()).displayName).toBe("Personal");
    const byUrl = createCalDavCalendar({ ...cfg(), calendar: server.calendarUrls[0]! });
    expect((await byUrl.describe()).displayName).toBe("Work");

    const other = await startRadicale([
      { slug: "chores", displayName: "Chores", components: ["VTODO"] },
      { slug: "team", displayName: "Team" },
    ]);
    try {
      const unnamed = createCalDavCalendar({ url: other.url, username: other.username, password: other.password });
      expect((await unnamed.describe()).displayName).toBe("Team");
    } finally {
      await other.stop();
    }
  });

  it("reports a stopped server as PROVIDER_UNAVAILABLE, before and after discovery", async () => {
    const other = await startRadicale();
    const c = { url: other.url, username: other.username, password: other.password };
    const discovered = createCalDavCalendar(c);
    await discovered.describe();
    await other.stop();
    for (const p of [
      discovered.busy(UTC("2030-01-01T00:00:00Z"), UTC("2030-01-02T00:00:00Z")),
      createCalDavCalendar(c).describe(),
    ]) {
      const failure = await failureOf(p);
      expect(failure.code).toBe("PROVIDER_UNAVAILABLE");
    }
  });
});
