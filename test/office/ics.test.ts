import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { escapeText, foldLine, writeIcs } from "../../src/office/tools/ics.js";
import { pickSlot } from "../../src/office/tools/slot-picker.js";
import { setupWorld, T, type World } from "./helpers.js";
import { card, completeGolden } from "./flows.js";

/** Unfolds and splits an .ics into properties, checking the line rules on the way. */
function parseIcs(text: string) {
  expect(text.endsWith("\r\n")).toBe(true);
  const physical = text.slice(0, -2).split("\r\n");
  for (const l of physical) {
    expect(Buffer.byteLength(l, "utf8")).toBeLessThanOrEqual(75);
    expect(l).not.toMatch(/[\r\n]/);
  }
  expect(text.replace(/\r\n/g, "")).not.toMatch(/\n/);
  const logical: string[] = [];
  for (const l of physical) {
    if (l.startsWith(" ")) logical[logical.length - 1] += l.slice(1);
    else logical.push(l);
  }
  return logical.map((l) => {
    let i = 0;
    for (let q = false; i < l.length; i++) {
      if (l[i] === '"') q = !q;
      else if (l[i] === ":" && !q) break;
    }
    const [name, ...params] = l.slice(0, i).split(";");
    return { name: name!, params, value: l.slice(i + 1) };
  });
}

describe("calendar.create_invite writes a valid RFC 5545 invite", () => {
  let w: World;
  beforeEach(async () => {
    w = await setupWorld();
  });
  afterEach(() => w.cleanup());

  it("golden path .ics: VCALENDAR/VEVENT with UID, DTSTAMP, DTSTART/DTEND TZID + VTIMEZONE, ORGANIZER, ATTENDEE, URL", async () => {
    const jobId = await completeGolden(w);
    const finished = card(w, jobId);
    const file = finished.artifacts.find((a: any) => a.mime_type === "text/calendar");
    expect(file.url).toBe(`/v1/artifacts/${file.artifact_id}`);
    const stored = w.office.artifact(T, file.artifact_id)!;
    expect(stored.mime_type).toBe("text/calendar");
    expect(w.office.artifact("tnt_other", file.artifact_id)).toBeNull();
    const props = parseIcs(stored.bytes.toString("utf8"));
    const names = props.map((p) => p.name);
    expect(names[0]).toBe("BEGIN");
    expect(props[0]!.value).toBe("VCALENDAR");
    expect(props.at(-1)).toMatchObject({ name: "END", value: "VCALENDAR" });
    for (const req of ["VERSION", "PRODID", "UID", "DTSTAMP", "DTSTART", "DTEND", "SUMMARY", "ORGANIZER", "ATTENDEE", "URL"]) expect(names).toContain(req);
    const vevent = props.slice(props.findIndex((p) => p.name === "BEGIN" && p.value === "VEVENT"));
    const get = (n: string) => (n === "TZID" ? props : vevent).find((p) => p.name === n)!;
    expect(props.filter((p) => p.name === "BEGIN").map((p) => p.value)).toEqual(expect.arrayContaining(["VTIMEZONE", "VEVENT"]));
    expect(get("TZID").value).toBe("Europe/Lisbon");
    expect(get("DTSTART").params).toContain("TZID=Europe/Lisbon");
    // Saturday 27 Dec 2025, "next week", Tue–Thu 14:00–17:00 Lisbon → Tue 30 Dec 14:00–14:30
    expect(get("DTSTART").value).toBe("20251230T140000");
    expect(get("DTEND").value).toBe("20251230T143000");
    expect(get("DTSTAMP").value).toMatch(/^\d{8}T\d{6}Z$/);
    expect(get("ATTENDEE").value).toBe("mailto:maria@acme.com");
    expect(get("URL").value).toMatch(/^https:\/\/meet\.google\.com\/[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
    expect(get("ORGANIZER").params.join(";")).toContain("CN=Office Scheduler");
    const outbox = w.office.artifacts.outbox(T, jobId);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.toRedacted).toBe("m***@acme.com");
    expect(outbox[0]!.artifactId).toBe(file.artifact_id);
  });

  it("folds at 75 octets without splitting UTF-8, escapes TEXT", () => {
    expect(escapeText("a,b;c\\d\ne")).toBe("a\\,b\\;c\\\\d\\ne");
    const long = `SUMMARY:${"Reunião com a equipa de operações ".repeat(6)}`;
    const folded = foldLine(long);
    for (const l of folded.split("\r\n")) expect(Buffer.byteLength(l)).toBeLessThanOrEqual(75);
    expect(folded.split("\r\n").map((l, i) => (i ? l.slice(1) : l)).join("")).toBe(long);
    const ics = writeIcs({ uid: "u1", dtstampUtc: Date.parse("2026-07-01T10:00:00Z"), timezone: "America/New_York", localStart: "20260702T150000", localEnd: "20260702T160000", summary: "Plan, review; ship", organizer: { name: "Ops: Bot", email: "bot@office.invalid" }, attendees: [{ name: "A", email: "a@b.co" }] });
    const props = parseIcs(ics);
    expect(props.find((p) => p.name === "SUMMARY")!.value).toBe("Plan\\, review\\; ship");
    expect(props.find((p) => p.name === "ORGANIZER")!.params[0]).toBe('CN="Ops: Bot"');
    // New York has two offset changes in 2026: one DAYLIGHT, one STANDARD observance
    expect(props.filter((p) => p.name === "BEGIN" && (p.value === "DAYLIGHT" || p.value === "STANDARD")).map((p) => p.value)).toEqual(["DAYLIGHT", "STANDARD"]);
    expect(props.find((p) => p.name === "TZOFFSETTO")!.value).toBe("-0400");
  });

  it("picks a slot inside the window and timezone, deterministically", () => {
    const now = Date.parse("2025-12-27T10:15:00.000Z");
    const a = pickSlot({ window: "Tue–Thu, 14:00–17:00", dayHint: "next week", timezone: "America/New_York", durationMinutes: 45, nowMs: now })!;
    expect(a.localStart).toBe("20251230T140000");
    expect(new Date(a.startUtc).toISOString()).toBe("2025-12-30T19:00:00.000Z");
    expect(a).toEqual(pickSlot({ window: "Tue–Thu, 14:00–17:00", dayHint: "next week", timezone: "America/New_York", durationMinutes: 45, nowMs: now }));
    const t = pickSlot({ window: "tomorrow, 13:00–17:00", timezone: "Asia/Tokyo", durationMinutes: 30, nowMs: now })!;
    expect(t.localStart).toBe("20251228T130000");
    expect(pickSlot({ window: "today, 09:00–10:00", timezone: "UTC", durationMinutes: 30, nowMs: now })).toBeNull();
  });
});
