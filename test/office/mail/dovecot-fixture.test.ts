import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Dovecot, startDovecot } from "../../support/dovecot.js";

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
});
