import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDovecot, type Dovecot } from "../support/dovecot.js";
import { getJson, startTestServer, type TestServer, waitFor } from "../support/server.js";

/**
 * Admins see what the organizer's mailbox refused: the real server reads a real IMAP mailbox
 * (Dovecot), mails that are not answers are refused and recorded, and GET
 * /v1/admin/inbound-mail lists them, newest first, without any address or content.
 */

let t: TestServer;
let dovecot: Dovecot;
beforeAll(async () => {
  dovecot = await startDovecot();
  t = await startTestServer({
    connectors: {
      imap: {
        url: dovecot.url,
        host: dovecot.host,
        port: dovecot.port,
        secure: false,
        username: dovecot.username,
        password: dovecot.password,
        mailbox: "INBOX",
        maxBytes: 50_000,
      },
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await dovecot?.stop();
});

describe("GET /v1/admin/inbound-mail", () => {
  it("lists refused mails for admins with their reasons and nothing of their content", async () => {
    const dan = t.demo.humans.find((h) => h.display_name === "Dan")!.token;
    const ana = t.demo.humans.find((h) => h.display_name === "Ana")!.token;
    const empty = await getJson(`${t.url}/v1/admin/inbound-mail`, dan);
    expect(empty).toEqual({ status: 200, body: { mailbox_configured: true, refusals: [] } });

    await dovecot.deliver(
      "From: eve@evil.test\r\nTo: organizer@example.test\r\nSubject: Lunch?\r\n\r\nAre you free for lunch? call +1 415 555 0188\r\n",
    );
    await dovecot.deliver(
      `From: eve@evil.test\r\nTo: organizer@example.test\r\nSubject: Big\r\n\r\n${"x".repeat(80_000)}\r\n`,
    );
    // Read now rather than wait for the mailbox to say something arrived: what is tested here is
    // the listing (test/office/invite-replies covers noticing new mail).
    await t.server.office.inbound.check();
    const listed = await waitFor(
      async () => {
        const r = await getJson(`${t.url}/v1/admin/inbound-mail`, dan);
        return r.body.refusals.length === 2 ? r.body : undefined;
      },
      15_000,
      () => `two refusals (the reader: ${JSON.stringify(t.server.office.inbound.status())})`,
    );
    expect(listed.refusals.map((r: { reason: string }) => r.reason).sort()).toEqual(["not_calendar", "too_large"]);
    expect(listed.refusals.every((r: { job_id: string | null }) => r.job_id === null)).toBe(true);
    const text = JSON.stringify(listed);
    for (const secret of ["eve@evil.test", "lunch", "555"]) expect(text.toLowerCase()).not.toContain(secret);
    expect((await getJson(`${t.url}/v1/admin/inbound-mail?limit=1`, dan)).body.refusals).toHaveLength(1);

    // Only admins; a bad limit is the standard error.
    expect((await getJson(`${t.url}/v1/admin/inbound-mail`, ana)).status).toBe(403);
    const bad = await getJson(`${t.url}/v1/admin/inbound-mail?limit=0`, dan);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
  }, 60_000);
});
