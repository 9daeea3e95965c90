import ical, { ICalAttendeeRole, ICalAttendeeStatus, ICalCalendarMethod } from "ical-generator";

export interface InviteIcsInput {
  uid: string;
  /** When this version of the event was written, epoch ms (DTSTAMP). */
  stamp: number;
  start: number;
  end: number;
  /** The zone the meeting was asked in, carried as X-WR-TIMEZONE for clients that show it; times are UTC. */
  timezone: string;
  summary: string;
  description?: string | undefined;
  location?: string | undefined;
  url?: string | undefined;
  organizer?: { name: string; email: string } | undefined;
  attendees: Array<{ name: string; email: string }>;
  /** REQUEST for an iMIP invite that asks for a reply, PUBLISH for a file to import, null for a calendar store (CalDAV forbids METHOD). */
  method: "REQUEST" | "PUBLISH" | null;
}

/**
 * One VEVENT as an iCalendar text, written by ical-generator. Start and end are UTC instants,
 * so no client has to interpret a zone definition to show the right time.
 */
export function buildInviteIcs(i: InviteIcsInput): string {
  const cal = ical({
    prodId: { company: "LogLine", product: "Office", language: "EN" },
    ...(i.method ? { method: i.method === "REQUEST" ? ICalCalendarMethod.REQUEST : ICalCalendarMethod.PUBLISH } : {}),
  });
  cal.x([{ key: "X-WR-TIMEZONE", value: i.timezone }]);
  const asks = i.method === "REQUEST" && !!i.organizer;
  cal.createEvent({
    id: i.uid,
    sequence: 0,
    stamp: new Date(i.stamp),
    start: new Date(i.start),
    end: new Date(i.end),
    summary: i.summary,
    ...(i.description ? { description: i.description } : {}),
    ...(i.location ? { location: i.location } : {}),
    ...(i.url ? { url: i.url } : {}),
    ...(i.organizer ? { organizer: { name: i.organizer.name, email: i.organizer.email } } : {}),
    attendees: i.attendees.map((a) => ({
      name: a.name,
      email: a.email,
      role: ICalAttendeeRole.REQ,
      status: ICalAttendeeStatus.NEEDSACTION,
      rsvp: asks,
    })),
  });
  // RFC 5545 ends every line, the last one too, with CRLF.
  const text = cal.toString();
  return text.endsWith("\r\n") ? text : `${text}\r\n`;
}
