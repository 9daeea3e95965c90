import { ImapFlow } from "imapflow";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Dovecot, startDovecot } from "../../support/dovecot.js";

/** The INTERNALDATE Dovecot gave each message in INBOX: the wall clock of its mail process. */
async function receivedAt(d: Dovecot): Promise<number[]> {
  const client = new ImapFlow({
    host: d.host,
    port: d.port,
    secure: false,
    auth: { user: d.username, pass: d.password },
    logger: false,
  });
  await client.connect();
  try {
    const lock = await client.getMailboxLock("INBOX");
    try {
      const out: number[] = [];
      for await (const m of client.fetch("1:*", { internalDate: true }))
        out.push(new Date(m.internalDate ?? 0).getTime());
      return out;
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
}

describe("the throwaway Dovecot the inbound-mail tests use", () => {
  let dovecot: Dovecot;
  beforeAll(async () => {
    dovecot = await startDovecot();
  }, 30_000);
  afterAll(() => dovecot?.stop());

  test("takes a message by IMAP APPEND and keeps it across a stop and start on the same port", async () => {
    expect(await dovecot.count()).toEqual({ total: 0, seen: 0 });
    await dovecot.deliver("From: maria@example.test\r\nTo: organizer@example.test\r\nSubject: Hello\r\n\r\nHello.\r\n");
    expect(await dovecot.count()).toEqual({ total: 1, seen: 0 });
    await dovecot.pause();
    await expect(dovecot.count()).rejects.toThrow();
    await dovecot.start();
    expect((await dovecot.count()).total).toBe(1);
  }, 30_000);

  // Under `npm run test:moved-clock` this process reads a moved wall clock; Dovecot's processes
  // must read the same one, or its master sees time jump and stops launching logins.
  test("reads the same wall clock as this process, after a restart too", async () => {
    const before = (await receivedAt(dovecot)).length;
    const deliveredAt = [Date.now()];
    await dovecot.deliver("From: maria@example.test\r\nTo: organizer@example.test\r\nSubject: One\r\n\r\nOne.\r\n");
    await dovecot.pause();
    await dovecot.start();
    deliveredAt.push(Date.now());
    await dovecot.deliver("From: maria@example.test\r\nTo: organizer@example.test\r\nSubject: Two\r\n\r\nTwo.\r\n");
    const stamps = (await receivedAt(dovecot)).slice(before);
    expect(stamps).toHaveLength(2);
    // INTERNALDATE has whole seconds; a loaded machine may take a few to log in.
    for (const [i, at] of stamps.entries()) expect(Math.abs(at - deliveredAt[i]!)).toBeLessThan(30_000);
  }, 30_000);
});
