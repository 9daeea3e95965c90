import type { SendMailOptions } from "nodemailer";
import { AppError } from "../../shared/errors.js";

export interface MailAddress {
  name?: string;
  address: string;
}

export interface Recipient {
  name: string;
  email: string;
}

export interface InviteMessageInput {
  outboxId: string;
  from: MailAddress;
  to: Recipient[];
  subject: string;
  text: string;
  /** The invite as written (CRLF lines); its METHOD must match `method`, or is added when absent. */
  ics: string;
  method?: "REQUEST" | "CANCEL" | "DECLINECOUNTER";
}

/**
 * `<outboxId@domain-of-from>`: the same outbox row always yields the same Message-ID, so a
 * message re-sent after a crash (the server may have taken the first copy) can be recognised
 * as a duplicate by the receiving side.
 */
export function stableMessageId(outboxId: string, fromAddress: string): string {
  const domain =
    fromAddress
      .slice(fromAddress.lastIndexOf("@") + 1)
      .trim()
      .toLowerCase() || "localhost";
  return `<${outboxId.replace(/[^A-Za-z0-9._-]/g, "-")}@${domain}>`;
}

/** iMIP requires the calendar's METHOD to equal the Content-Type's `method=`. */
function withMethod(ics: string, method: string): string {
  const m = /^METHOD:(.*)$/im.exec(ics);
  if (m) {
    if (m[1]!.trim().toUpperCase() !== method)
      throw new AppError("VALIDATION_ERROR", `The invite's METHOD is ${m[1]!.trim()}, not ${method}`);
    return ics;
  }
  return ics.replace(/^BEGIN:VCALENDAR\r?\n/i, (line) => `${line}METHOD:${method}\r\n`);
}

/**
 * An iMIP (RFC 6047) invitation: a plain-text body with the calendar as a
 * `text/calendar; method=REQUEST; charset=utf-8` alternative, plus the same bytes attached as
 * `invite.ics` (application/ics) for clients that only look at attachments. Nodemailer's
 * `icalEvent` builds both parts from one value. The Message-ID comes from `stableMessageId`.
 */
export function buildInviteMessage(i: InviteMessageInput): SendMailOptions {
  if (!i.to.length) throw new AppError("VALIDATION_ERROR", "An invite needs at least one recipient");
  const method = i.method ?? "REQUEST";
  return {
    from: i.from.name ? { name: i.from.name, address: i.from.address } : i.from.address,
    to: i.to.map((t) => ({ name: t.name, address: t.email })),
    subject: i.subject,
    text: i.text,
    messageId: stableMessageId(i.outboxId, i.from.address),
    icalEvent: { method, filename: "invite.ics", content: withMethod(i.ics, method) },
  };
}
