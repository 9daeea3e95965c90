import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import {
  buildInviteMessage,
  classifyFailure,
  scrubAddresses,
  stableMessageId,
} from "../../../src/office/mail/index.js";
import { inviteIcs, MAIL_FROM } from "./mail-world.js";

const to = [
  { name: "Ann Lee", email: "ann@example.com" },
  { name: "Bo Chen", email: "bo@example.org" },
];

/** Renders the message the way the SMTP transport would put it on the wire, then parses it. */
async function render(msg: ReturnType<typeof buildInviteMessage>) {
  const info = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(msg);
  return simpleParser(info.message as Buffer);
}

describe("buildInviteMessage (iMIP)", () => {
  it("has a text body, a text/calendar method=REQUEST alternative, invite.ics attached, and a stable Message-ID", async () => {
    const ics = inviteIcs("evt_1@logline.office", to);
    const msg = buildInviteMessage({
      outboxId: "obx_abc",
      from: MAIL_FROM,
      to,
      subject: "Invitation: Quarterly review",
      text: "You are invited.",
      ics,
    });
    expect(msg.messageId).toBe("<obx_abc@acme.test>");
    const mail = await render(msg);
    expect(mail.text?.trim()).toBe("You are invited.");
    expect(mail.messageId).toBe("<obx_abc@acme.test>");
    expect(mail.from?.value).toEqual([{ name: MAIL_FROM.name, address: MAIL_FROM.address }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual([
      "ann@example.com",
      "bo@example.org",
    ]);
    const calendar = mail.attachments.find((a) => a.contentType === "text/calendar");
    expect(calendar?.headers.get("content-type")).toMatchObject({
      value: "text/calendar",
      params: { method: "REQUEST", charset: "utf-8" },
    });
    expect(calendar?.content.toString("utf8")).toBe(ics);
    const file = mail.attachments.find((a) => a.contentType === "application/ics");
    expect(file?.filename).toBe("invite.ics");
    expect(file?.contentDisposition).toBe("attachment");
    expect(file?.content.toString("utf8")).toBe(ics);
  });

  it("derives the Message-ID from the outbox id and the sender's domain only", () => {
    const a = buildInviteMessage({
      outboxId: "obx_1",
      from: { address: "Office@Acme.TEST" },
      to,
      subject: "s",
      text: "t",
      ics: inviteIcs("u", to),
    });
    const b = buildInviteMessage({
      outboxId: "obx_1",
      from: { name: "Other", address: "x@acme.test" },
      to: to.slice(1),
      subject: "s2",
      text: "t2",
      ics: inviteIcs("v", to),
    });
    expect(a.messageId).toBe(b.messageId);
    expect(stableMessageId("obx 1/<x>", "o@acme.test")).toBe("<obx-1--x-@acme.test>");
  });

  it("adds METHOD when the calendar lacks it, and refuses a calendar whose METHOD disagrees", async () => {
    const bare = inviteIcs("u", to).replace("METHOD:REQUEST\r\n", "");
    const mail = await render(
      buildInviteMessage({ outboxId: "obx_2", from: MAIL_FROM, to, subject: "s", text: "t", ics: bare }),
    );
    expect(mail.attachments.find((a) => a.contentType === "text/calendar")?.content.toString()).toMatch(
      /^BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\n/,
    );
    expect(() =>
      buildInviteMessage({
        outboxId: "obx_3",
        from: MAIL_FROM,
        to,
        subject: "s",
        text: "t",
        ics: inviteIcs("u", to),
        method: "CANCEL",
      }),
    ).toThrow(/METHOD is REQUEST, not CANCEL/);
  });

  it("refuses an invite without recipients", () => {
    expect(() =>
      buildInviteMessage({
        outboxId: "obx_4",
        from: MAIL_FROM,
        to: [],
        subject: "s",
        text: "t",
        ics: inviteIcs("u", []),
      }),
    ).toThrow(expect.objectContaining({ code: "VALIDATION_ERROR", message: "An invite needs at least one recipient" }));
  });
});

describe("failure classification", () => {
  it("4xx retries, 5xx fails, connection errors retry, other setup errors fail; addresses never survive", () => {
    expect(classifyFailure({ responseCode: 451, response: "451 4.3.0 <ann@example.com>: try later" })).toEqual({
      retryable: true,
      code: 451,
      error: "451 4.3.0 <a***@example.com>: try later",
    });
    expect(classifyFailure({ responseCode: 550, response: "550 5.1.1 unknown user ann@example.com" })).toMatchObject({
      retryable: false,
      code: 550,
    });
    expect(
      classifyFailure({ code: "ESOCKET", originalCode: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:1" }),
    ).toEqual({
      retryable: true,
      error: "The mail server refused the connection (ECONNREFUSED)",
    });
    expect(
      classifyFailure({ code: "ETIMEDOUT", timeoutType: "GREETING_TIMEOUT", message: "Greeting never received" }),
    ).toMatchObject({
      retryable: true,
      error: expect.stringContaining("GREETING_TIMEOUT"),
    });
    expect(classifyFailure({ code: "ETLS", message: "certificate has expired" })).toMatchObject({
      retryable: false,
      error: "ETLS: certificate has expired",
    });
    expect(scrubAddresses("to bob@localhost and b***@x.org")).toBe("to b***@localhost and b***@x.org");
  });
});
