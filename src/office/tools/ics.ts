import { offsetMinutes, transitionsInYear } from "./tz.js";

/**
 * RFC 5545 writer for one VEVENT invite. Pure: everything (uid, stamp, times) comes in.
 * Lines end in CRLF and are folded at 75 octets (never inside a UTF-8 sequence); TEXT values
 * are escaped.
 */

export interface IcsEvent {
  uid: string;
  dtstampUtc: number;
  timezone: string;
  localStart: string;
  localEnd: string;
  summary: string;
  description?: string;
  organizer: { name: string; email: string };
  attendees: Array<{ name: string; email: string }>;
  url?: string;
  location?: string;
}

export function escapeText(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
}

/** Parameter values with `:;,` must be quoted; quotes themselves are not allowed inside. */
function param(value: string): string {
  const v = value.replace(/"/g, "'");
  return /[:;,]/.test(v) ? `"${v}"` : v;
}

export function foldLine(line: string): string {
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // back off to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx)
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString("utf8"));
    start = end;
    limit = 74; // continuation lines start with one space
  }
  return parts.join("\r\n ");
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, "0");
const utcStamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
const offsetStr = (min: number) => `${min < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(min) / 60))}${pad(Math.abs(min) % 60)}`;

/** A VTIMEZONE covering the event's year: one observance per offset transition, or one fixed. */
export function vtimezone(tz: string, atUtc: number): string[] {
  const year = new Date(atUtc).getUTCFullYear();
  const trans = transitionsInYear(tz, year);
  const lines = ["BEGIN:VTIMEZONE", `TZID:${tz}`];
  if (!trans.length) {
    const off = offsetStr(offsetMinutes(tz, atUtc));
    lines.push("BEGIN:STANDARD", "DTSTART:19700101T000000", `TZOFFSETFROM:${off}`, `TZOFFSETTO:${off}`, "END:STANDARD");
  } else {
    for (const t of trans) {
      const kind = t.to > t.from ? "DAYLIGHT" : "STANDARD";
      // DTSTART of an observance is the wall-clock time of the change in the offset before it
      const local = new Date(t.atUtc + t.from * 60_000);
      const start = `${local.getUTCFullYear()}${pad(local.getUTCMonth() + 1)}${pad(local.getUTCDate())}T${pad(local.getUTCHours())}${pad(local.getUTCMinutes())}00`;
      lines.push(`BEGIN:${kind}`, `DTSTART:${start}`, `TZOFFSETFROM:${offsetStr(t.from)}`, `TZOFFSETTO:${offsetStr(t.to)}`, `END:${kind}`);
    }
  }
  lines.push("END:VTIMEZONE");
  return lines;
}

export function writeIcs(e: IcsEvent): string {
  const tzid = param(e.timezone);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//LogLine//Office//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:REQUEST",
    ...vtimezone(e.timezone, e.dtstampUtc),
    "BEGIN:VEVENT",
    `UID:${e.uid}`,
    `DTSTAMP:${utcStamp(e.dtstampUtc)}`,
    `DTSTART;TZID=${tzid}:${e.localStart}`,
    `DTEND;TZID=${tzid}:${e.localEnd}`,
    `SUMMARY:${escapeText(e.summary)}`,
    ...(e.description ? [`DESCRIPTION:${escapeText(e.description)}`] : []),
    ...(e.location ? [`LOCATION:${escapeText(e.location)}`] : []),
    `ORGANIZER;CN=${param(e.organizer.name)}:mailto:${e.organizer.email}`,
    ...e.attendees.map((a) => `ATTENDEE;CN=${param(a.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:${a.email}`),
    ...(e.url ? [`URL:${e.url}`] : []),
    "STATUS:CONFIRMED",
    "SEQUENCE:0",
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join("\r\n") + "\r\n";
}
