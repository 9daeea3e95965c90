import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImapReader, type InboundMail } from "../../../src/office/mail/imap-reader.js";
import { systemClock } from "../../../src/shared/clock.js";
import { startDovecot, type Dovecot } from "../../support/dovecot.js";
import { waitFor } from "../../support/server.js";

/**
 * The organizer's mailbox read with IMAP against a real Dovecot: a mail whose recording fails
 * stays unread and is read again soon, and the mails after it are not left waiting for the next
 * one to arrive.
 */
let dovecot: Dovecot;
beforeAll(async () => {
  dovecot = await startDovecot();
}, 60_000);
afterAll(async () => {
  await dovecot?.stop();
});

const mail = (subject: string) =>
  `From: maria@example.test\r\nTo: organizer@example.test\r\nSubject: ${subject}\r\n\r\nHello\r\n`;

describe("IMAP reader", () => {
  it("a mail whose recording failed is read again within the first backoff, and so are the ones after it", async () => {
    const seen: string[] = [];
    let failOnce = true;
    const reader = createImapReader({
      config: {
        url: dovecot.url,
        host: dovecot.host,
        port: dovecot.port,
        secure: false,
        username: dovecot.username,
        password: dovecot.password,
        mailbox: "INBOX",
        maxBytes: 50_000,
      },
      clock: systemClock,
      maxBytes: 50_000,
      // Nothing new will arrive: only a retry can read these.
      pollMs: 600_000,
      backoffMs: [200],
      async handle(m: InboundMail) {
        const subject = /Subject: (.*)\r\n/.exec(m.raw?.toString("utf8") ?? "")?.[1] ?? "?";
        if (failOnce) {
          failOnce = false;
          throw new Error("the database is busy");
        }
        seen.push(subject);
      },
    });
    await dovecot.deliver(mail("first"));
    await dovecot.deliver(mail("second"));
    reader.start();
    try {
      await waitFor(async () => seen.length === 2, 10_000, "both mails recorded");
      expect(seen).toEqual(["first", "second"]);
      expect(await dovecot.count()).toEqual({ total: 2, seen: 2 });
    } finally {
      await reader.stop();
    }
  }, 30_000);
});
