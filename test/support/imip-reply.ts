import ICAL from "ical.js";
import MailComposer from "nodemailer/lib/mail-composer/index.js";

const ORGANIZER = "organizer@example.test";

/** Maria's mail client answering the invitation: an iMIP REPLY (or COUNTER) with her ATTENDEE line only. */
export function replyMail(
  invite: ICAL.Component,
  o: {
    partstat?: string;
    comment?: string;
    from?: string;
    attendee?: string;
    method?: "REPLY" | "COUNTER";
    start?: string;
    end?: string;
  },
) {
  const src = invite.getFirstSubcomponent("vevent")!;
  const cal = new ICAL.Component(["vcalendar", [], []]);
  cal.addPropertyWithValue("prodid", "-//Maria's Mail Client//EN");
  cal.addPropertyWithValue("version", "2.0");
  cal.addPropertyWithValue("method", o.method ?? "REPLY");
  const ev = new ICAL.Component("vevent");
  ev.addPropertyWithValue("uid", src.getFirstPropertyValue("uid"));
  ev.addPropertyWithValue("dtstamp", ICAL.Time.fromJSDate(new Date("2025-12-27T12:00:00Z"), true));
  ev.addPropertyWithValue("sequence", Number(src.getFirstPropertyValue("sequence") ?? 0));
  const copy = (name: string) => ev.addProperty(new ICAL.Property(src.getFirstProperty(name)!.toJSON()));
  copy("organizer");
  if (o.method === "COUNTER") {
    ev.addPropertyWithValue("dtstart", ICAL.Time.fromJSDate(new Date(o.start!), true));
    ev.addPropertyWithValue("dtend", ICAL.Time.fromJSDate(new Date(o.end!), true));
  } else {
    copy("dtstart");
    copy("dtend");
  }
  const att = ev.addPropertyWithValue("attendee", `mailto:${o.attendee ?? "maria@acme.com"}`);
  att.setParameter("cn", "Maria");
  if (o.method !== "COUNTER") att.setParameter("partstat", o.partstat ?? "ACCEPTED");
  if (o.comment) ev.addPropertyWithValue("comment", o.comment);
  cal.addSubcomponent(ev);
  const method = o.method ?? "REPLY";
  return new MailComposer({
    from: o.from ?? "Maria <maria@acme.com>",
    to: ORGANIZER,
    subject: `${method === "COUNTER" ? "New time proposed" : "Accepted"}: Call with Maria`,
    text: "Sent from my calendar.",
    icalEvent: { method, content: cal.toString() },
  })
    .compile()
    .build();
}
