import ICAL from "ical.js";
import type { ParsedMail as Mail } from "mailparser";

/**
 * Reading an invitee's answer out of a mail: an iMIP (RFC 6047) message whose calendar part is
 * METHOD:REPLY (accepted / declined / tentative) or METHOD:COUNTER (another time proposed).
 * Pure: no matching against jobs here, only what the mail itself says, or why it says nothing
 * usable. Addresses are returned for matching and never reach the ledger from here.
 */

type ReplyAnswer = "accepted" | "declined" | "tentative" | "counter";

export interface ImipReply {
  /** The From address, lower case. */
  from: string;
  /** The Message-ID header as given (or a stand-in built from the mailbox position). */
  message_id: string;
  uid: string;
  sequence: number;
  /** The replying ATTENDEE's address (mailto: removed), lower case, and the name it gives. */
  attendee_email: string;
  attendee_name?: string;
  answer: ReplyAnswer;
  comment?: string;
  /** COUNTER: the time proposed (epoch ms) and the zone it was written in. */
  proposed?: { start: number; end: number; timezone: string };
}

export type RefusalReason =
  | "too_large"
  | "not_calendar"
  | "malformed"
  | "not_a_reply"
  | "no_match"
  | "not_invited"
  | "spoofed_sender"
  | "job_closed"
  | "duplicate";

export type ParsedMail =
  | { ok: true; reply: ImipReply }
  | { ok: false; reason: RefusalReason; detail: string; message_id?: string };

const CALENDAR_TYPES = new Set(["text/calendar", "application/ics"]);
const PARTSTATS: Record<string, ReplyAnswer> = { ACCEPTED: "accepted", DECLINED: "declined", TENTATIVE: "tentative" };
/** A calendar part larger than this is not an answer to one invitation. */
const MAX_CALENDAR_CHARS = 200_000;

const addressOf = (value: string) =>
  value
    .replace(/^mailto:/i, "")
    .trim()
    .toLowerCase();

function refused(reason: RefusalReason, detail: string, messageId?: string): ParsedMail {
  return { ok: false, reason, detail, ...(messageId ? { message_id: messageId } : {}) };
}

/** Parses a raw mail no larger than `maxBytes` into an invitee's answer, or says why it is none. */
export async function parseImipReply(
  raw: Buffer,
  opts: { maxBytes: number; fallbackMessageId: string },
): Promise<ParsedMail> {
  if (raw.length > opts.maxBytes)
    return refused("too_large", `The mail is ${raw.length} bytes; at most ${opts.maxBytes} are read.`);
  let mail: Mail;
  try {
    // Loaded at the first answer read: a server without a mailbox to read starts without it.
    const { simpleParser } = await import("mailparser");
    mail = await simpleParser(raw, {
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
    });
  } catch {
    return refused("malformed", "The mail could not be read.");
  }
  const messageId = mail.messageId?.trim() || opts.fallbackMessageId;
  const from = mail.from?.value.find((a) => a.address)?.address?.toLowerCase();
  if (!from) return refused("malformed", "The mail names no sender.", messageId);
  const part = mail.attachments.find(
    (a) => CALENDAR_TYPES.has(a.contentType.toLowerCase()) || a.filename?.toLowerCase().endsWith(".ics"),
  );
  if (!part) return refused("not_calendar", "The mail holds no calendar.", messageId);
  const text = part.content.toString("utf8");
  if (text.length > MAX_CALENDAR_CHARS) return refused("too_large", "The calendar part is too large.", messageId);
  let vevent: ICAL.Component | null;
  let method: string;
  try {
    const cal = new ICAL.Component(ICAL.parse(text));
    if (cal.name !== "vcalendar") return refused("malformed", "The calendar part is not a VCALENDAR.", messageId);
    method = String(cal.getFirstPropertyValue("method") ?? "").toUpperCase();
    vevent = cal.getFirstSubcomponent("vevent");
  } catch {
    return refused("malformed", "The calendar part could not be read.", messageId);
  }
  if (method !== "REPLY" && method !== "COUNTER")
    return refused("not_a_reply", `The calendar's METHOD is ${method || "missing"}, not REPLY or COUNTER.`, messageId);
  if (!vevent) return refused("malformed", "The calendar holds no event.", messageId);
  try {
    const uid = String(vevent.getFirstPropertyValue("uid") ?? "").trim();
    if (!uid || uid.length > 200) return refused("malformed", "The event has no usable UID.", messageId);
    const attendees = vevent.getAllProperties("attendee");
    // A REPLY names the one attendee who answers (RFC 5546 3.2.3); a COUNTER may list others, the sender among them.
    const mine =
      method === "REPLY"
        ? attendees.length === 1
          ? attendees[0]
          : undefined
        : (attendees.find((a) => addressOf(String(a.getFirstValue())) === from) ?? attendees[0]);
    if (!mine) return refused("malformed", "A REPLY must name exactly one attendee.", messageId);
    const attendeeEmail = addressOf(String(mine.getFirstValue() ?? ""));
    if (!attendeeEmail.includes("@")) return refused("malformed", "The attendee has no address.", messageId);
    const cn = mine.getParameter("cn");
    const seqRaw = Number(vevent.getFirstPropertyValue("sequence") ?? 0);
    const sequence = Number.isInteger(seqRaw) && seqRaw >= 0 && seqRaw <= 100_000 ? seqRaw : 0;
    const commentRaw = vevent.getFirstPropertyValue("comment");
    const comment = typeof commentRaw === "string" && commentRaw.trim() ? commentRaw.trim() : undefined;
    let answer: ReplyAnswer;
    let proposed: ImipReply["proposed"];
    if (method === "COUNTER") {
      const start = vevent.getFirstPropertyValue("dtstart");
      const endProp = vevent.getFirstPropertyValue("dtend");
      if (!(start instanceof ICAL.Time))
        return refused("malformed", "A COUNTER must propose a start (DTSTART).", messageId);
      const startMs = start.toJSDate().getTime();
      let endMs: number;
      if (endProp instanceof ICAL.Time) endMs = endProp.toJSDate().getTime();
      else {
        const dur = vevent.getFirstPropertyValue("duration");
        endMs = dur instanceof ICAL.Duration ? startMs + dur.toSeconds() * 1000 : Number.NaN;
      }
      if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs <= startMs || endMs - startMs > 24 * 3_600_000)
        return refused("malformed", "The proposed time is not a usable range.", messageId);
      const tz = start.zone?.tzid && start.zone.tzid !== "floating" ? start.zone.tzid : "UTC";
      answer = "counter";
      proposed = { start: startMs, end: endMs, timezone: tz };
    } else {
      const partstat = String(mine.getParameter("partstat") ?? "").toUpperCase();
      const a = PARTSTATS[partstat];
      if (!a) return refused("malformed", `PARTSTAT ${partstat || "missing"} is not an answer.`, messageId);
      answer = a;
    }
    return {
      ok: true,
      reply: {
        from,
        message_id: messageId,
        uid,
        sequence,
        attendee_email: attendeeEmail,
        ...(typeof cn === "string" && cn.trim() ? { attendee_name: cn.trim().slice(0, 120) } : {}),
        answer,
        ...(comment ? { comment } : {}),
        ...(proposed ? { proposed } : {}),
      },
    };
  } catch {
    return refused("malformed", "The event could not be read.", messageId);
  }
}
