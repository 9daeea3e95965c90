import { afterEach, describe, expect, it } from "vitest";
import { createSmtpTransport, type DeliveryHooks, type MailTransport } from "../../../src/office/mail/index.js";
import { advance, createMailWorld, MAIL_FROM, T, type MailWorld } from "./mail-world.js";
import { freePort, startSmtp, type FakeSmtp } from "./smtp-fixture.js";

let w: MailWorld;
let server: FakeSmtp | undefined;
let transport: MailTransport | undefined;
afterEach(async () => {
  await w?.cleanup();
  transport?.close();
  await server?.close();
  server = transport = undefined;
});

const smtp = (s: FakeSmtp, auth?: { user: string; password: string }) =>
  (transport = createSmtpTransport({ url: s.url, ...auth, from: MAIL_FROM }));

/** Hooks that record the order they were called in. */
function recorder() {
  const calls: string[] = [];
  const hooks: DeliveryHooks = {
    async beforeAttempt(row, attempt, resumed) {
      calls.push(`before ${attempt}${resumed ? " resumed" : ""} ${row.status}`);
    },
    async afterAttempt(row, attempt, outcome) {
      calls.push(`after ${attempt} ${outcome.status} ${row.status}`);
    },
  };
  return { calls, hooks };
}

describe("outbox worker delivering to a real SMTP server", () => {
  it("delivers the invite: REQUEST alternative, .ics attached with UID, attendees and DTSTART, From = MAIL_FROM, Message-ID <outboxId@domain>", async () => {
    w = createMailWorld();
    server = await startSmtp({ auth: { user: "office", pass: "s3cret" } });
    const attendees = [
      { name: "Ann Lee", email: "ann@example.com" },
      { name: "Bo Chen", email: "bo@example.org" },
    ];
    const { outboxId, uid } = w.enqueue({ attendees });
    const worker = w.worker({ transport: smtp(server, { user: "office", password: "s3cret" }) });
    worker.start();
    await worker.idle();

    expect(server.received).toHaveLength(1);
    const got = server.received[0]!;
    expect(got).toMatchObject({ user: "office", from: MAIL_FROM.address, to: ["ann@example.com", "bo@example.org"] });
    expect(got.mail.from?.value).toEqual([{ name: MAIL_FROM.name, address: MAIL_FROM.address }]);
    expect(got.mail.messageId).toBe(`<${outboxId}@acme.test>`);
    const calendar = got.mail.attachments.find((a) => a.contentType === "text/calendar");
    expect(calendar?.headers.get("content-type")).toMatchObject({ params: { method: "REQUEST" } });
    const ics = got.mail.attachments.find((a) => a.filename === "invite.ics")?.content.toString("utf8") ?? "";
    expect(ics).toContain(`UID:${uid}`);
    expect(ics).toContain("DTSTART:20251229T150000Z");
    expect(ics).toContain("METHOD:REQUEST");
    expect(ics).toMatch(/ATTENDEE;CN=Ann Lee;.*:mailto:ann@example\.com/);
    expect(ics).toMatch(/ATTENDEE;CN=Bo Chen;.*:mailto:bo@example\.org/);

    const [d] = worker.list(T);
    expect(d).toMatchObject({
      outbox_id: outboxId,
      status: "sent",
      attempts: 1,
      message_id: `<${outboxId}@acme.test>`,
      sent_at: w.clock.iso(),
      last_error: null,
      next_attempt_at: null,
    });
    expect(d?.last_response).toMatch(/^250 /);
  });

  it("a wrong password (535) fails the row at once with the server's answer", async () => {
    w = createMailWorld();
    server = await startSmtp({ auth: { user: "office", pass: "s3cret" } });
    const { outboxId } = w.enqueue();
    const worker = w.worker({ transport: smtp(server, { user: "office", password: "nope" }) });
    worker.start();
    await worker.idle();
    expect(w.row(outboxId)).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null });
    expect(w.row(outboxId).lastError).toMatch(/^535 .*Invalid username or password/);
    await advance(w, worker, 24 * 3_600_000);
    expect(w.row(outboxId).attempts).toBe(1);
  });

  it.each([
    ["RCPT", "rcptReplies"],
    ["DATA", "dataReplies"],
  ] as const)(
    "a 451 to %s is retried after the first backoff and then sent: attempts = 2, hooks in order",
    async (_cmd, queue) => {
      w = createMailWorld();
      server = await startSmtp();
      server[queue].push({ code: 451, message: "4.3.0 <ann@example.com> greylisted, try again later" });
      const { outboxId } = w.enqueue();
      const { calls, hooks } = recorder();
      const worker = w.worker({ transport: smtp(server), hooks, schedule: [30_000, 120_000] });
      worker.start();
      await worker.idle();

      const retry = w.row(outboxId);
      expect(retry).toMatchObject({
        status: "queued",
        attempts: 1,
        nextAttemptAt: new Date(w.clock.now() + 30_000).toISOString(),
      });
      expect(retry.lastError).toBe("451 4.3.0 <a***@example.com> greylisted, try again later");
      await advance(w, worker, 29_000);
      expect(server.received).toHaveLength(0);
      await advance(w, worker, 1_000);
      expect(server.received).toHaveLength(1);
      expect(w.row(outboxId)).toMatchObject({ status: "sent", attempts: 2, lastError: null });
      expect(calls).toEqual(["before 1 sending", "after 1 retry queued", "before 2 sending", "after 2 sent sent"]);
    },
  );

  it("a 550 fails at once: last_error is the server's text without the address, no retry", async () => {
    w = createMailWorld();
    server = await startSmtp();
    server.rcptReplies.push({
      code: 550,
      message: "5.1.1 <ann@example.com>: Recipient address rejected: User unknown",
    });
    const { outboxId } = w.enqueue();
    const outcomes: unknown[] = [];
    const worker = w.worker({
      transport: smtp(server),
      hooks: { afterAttempt: async (_r, _a, o) => void outcomes.push(o) },
    });
    worker.start();
    await worker.idle();
    const row = w.row(outboxId);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row.lastError).toContain("Recipient address rejected: User unknown");
    expect(row.lastError).toContain("a***@example.com");
    expect(row.lastError).not.toContain("ann@example.com");
    expect(outcomes).toEqual([{ status: "failed", code: 550, error: row.lastError, attempts: 1 }]);
    await advance(w, worker, 24 * 3_600_000);
    expect(w.row(outboxId).attempts).toBe(1);
  });

  it("one of two recipients refused: sent to the other, the refusal counted without its address", async () => {
    w = createMailWorld();
    server = await startSmtp();
    server.rcptReplies.push({ code: 550, message: "5.1.1 <ann@example.com> unknown" });
    const { outboxId } = w.enqueue({
      attendees: [
        { name: "Ann Lee", email: "ann@example.com" },
        { name: "Bo Chen", email: "bo@example.org" },
      ],
    });
    const outcomes: unknown[] = [];
    const worker = w.worker({
      transport: smtp(server),
      hooks: { afterAttempt: async (_r, _a, o) => void outcomes.push(o) },
    });
    worker.start();
    await worker.idle();
    expect(server.received[0]?.to).toEqual(["bo@example.org"]);
    expect(w.row(outboxId)).toMatchObject({ status: "sent", attempts: 1, lastError: "1 of 2 recipients were refused" });
    expect(outcomes).toEqual([
      expect.objectContaining({ status: "sent", rejected: 1, message_id: `<${outboxId}@acme.test>` }),
    ]);
  });

  it("server down, then back up: connection refused is retried and the invite is sent", async () => {
    w = createMailWorld();
    const port = await freePort();
    const { outboxId } = w.enqueue();
    const worker = w.worker({
      transport: createSmtpTransport({ url: `smtp://127.0.0.1:${port}`, from: MAIL_FROM }),
      schedule: [30_000, 120_000],
    });
    worker.start();
    await worker.idle();
    expect(w.row(outboxId)).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: "The mail server refused the connection (ECONNREFUSED)",
    });

    server = await startSmtp({ port });
    await advance(w, worker, 30_000);
    expect(w.row(outboxId)).toMatchObject({ status: "sent", attempts: 2 });
    expect(server.received).toHaveLength(1);
  });

  it("4xx every time: retried along the schedule, then failed when it runs out", async () => {
    w = createMailWorld();
    server = await startSmtp();
    server.rcptReplies.push(...Array.from({ length: 5 }, () => ({ code: 421, message: "4.7.0 Try again later" })));
    const { outboxId } = w.enqueue();
    const worker = w.worker({ transport: smtp(server), schedule: [1_000, 2_000] });
    worker.start();
    await worker.idle();
    await advance(w, worker, 1_000);
    expect(w.row(outboxId)).toMatchObject({ status: "queued", attempts: 2 });
    await advance(w, worker, 2_000);
    expect(w.row(outboxId)).toMatchObject({ status: "failed", attempts: 3, nextAttemptAt: null });
    expect(w.row(outboxId).lastError).toMatch(/Try again later/);
  });

  it("a throwing beforeAttempt makes no SMTP call and puts the row back as it was", async () => {
    w = createMailWorld();
    server = await startSmtp();
    const { outboxId } = w.enqueue();
    const before = w.row(outboxId);
    let refuse = true;
    const worker = w.worker({
      transport: smtp(server),
      hooks: {
        beforeAttempt: async () => {
          if (refuse) throw new Error("ledger unavailable");
        },
      },
    });
    worker.start();
    await worker.idle();
    expect(server.sessions).toBe(0);
    expect(w.row(outboxId)).toMatchObject({ status: "queued", attempts: 0, nextAttemptAt: before.nextAttemptAt });
    refuse = false;
    await advance(w, worker, 60_000);
    expect(w.row(outboxId)).toMatchObject({ status: "sent", attempts: 1 });
  });
});
