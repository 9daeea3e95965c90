import ICAL from "ical.js";
import MailComposer from "nodemailer/lib/mail-composer/index.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TStoredEvent } from "../../contracts/events.js";
import { createCalDavCalendar } from "../../src/office/index.js";
import { startDovecot, type Dovecot } from "../support/dovecot.js";
import { replyMail } from "../support/imip-reply.js";
import { startRadicale, type Radicale } from "../support/radicale.js";
import { startSmtp, type FakeSmtp } from "./mail/smtp-fixture.js";
import { AGENT, setupWorld, type World } from "./helpers.js";
import { card, completeGolden, stateOf } from "./flows.js";

/**
 * The loop closes: Office emails Maria an invitation (SMTP) and writes it to the organizer's
 * calendar (Radicale); Maria's mail client answers with an iMIP REPLY, built here by ical.js
 * the way a client builds it, and the answer lands in the organizer's mailbox (Dovecot, by
 * IMAP APPEND). Office reads it over IMAP; the card, the ledger and the calendar follow.
 */

const ORGANIZER = "organizer@example.test";
let dovecot: Dovecot;
let dav: Radicale | undefined;
let smtp: FakeSmtp;
let w: World | undefined;

beforeAll(async () => {
  [dovecot, smtp] = await Promise.all([startDovecot(), startSmtp()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([dovecot?.stop(), smtp?.close()]);
});
afterEach(async () => {
  w?.office.stop();
  w?.cleanup();
  w = undefined;
  await dav?.stop();
  dav = undefined;
});

const agents = [
  {
    id: AGENT,
    name: "Office Scheduler",
    allowed_tools: ["calendar.create_invite", "mail.send", "calendar.record_answer"],
  },
];
const imapOf = (d: Dovecot) => ({
  url: d.url,
  host: d.host,
  port: d.port,
  secure: false,
  username: d.username,
  password: d.password,
  mailbox: "INBOX",
  maxBytes: 200_000,
});

/** A fresh calendar per test (the job ids, and so the event UIDs, repeat from test to test). */
async function world(opts: { calendarTimeoutMs?: number } = {}) {
  dav = await startRadicale();
  const calendar = createCalDavCalendar(
    { url: dav.url, username: dav.username, password: dav.password },
    { timeoutMs: opts.calendarTimeoutMs ?? 5_000 },
  );
  w = await setupWorld({
    agents,
    office: {
      mail: { url: smtp.url, from: { address: ORGANIZER, name: "Acme Office" } },
      calendarProvider: calendar,
      imap: imapOf(dovecot),
      imapBackoffMs: [2_000],
    },
  });
  await w.office.start();
  return calendar;
}

const settle = async () => {
  for (let i = 0; i < 30; i++) {
    await w!.office.idle();
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** Books the golden meeting and returns the job and the invitation Maria received. */
async function bookedMeeting() {
  const before = smtp.received.length;
  const jobId = await completeGolden(w!);
  await settle();
  expect(stateOf(w!, jobId)).toBe("completed");
  const mail = smtp.received.slice(before).find((m) => m.to.includes("maria@acme.com"))!;
  const ics = mail.mail.attachments.find((a) => a.contentType === "text/calendar")!.content.toString("utf8");
  return { jobId, invite: new ICAL.Component(ICAL.parse(ics)) };
}

const replies = (jobId: string) =>
  w!
    .events(jobId)
    .filter((e): e is TStoredEvent & { event_type: "job.reply_received" } => e.event_type === "job.reply_received");
const answerCalls = (jobId: string) =>
  w!
    .events(jobId)
    .filter(
      (e) =>
        (e.event_type === "tool.called" || e.event_type === "tool.result") &&
        (e.payload as { tool_name: string }).tool_name === "calendar.record_answer",
    );

async function partstatInCalendar(uid: string, email = "maria@acme.com"): Promise<string | undefined> {
  const calendar = createCalDavCalendar({ url: dav!.url, username: dav!.username, password: dav!.password });
  const stored = await calendar.get(uid);
  const ev = new ICAL.Component(ICAL.parse(stored!.ics)).getFirstSubcomponent("vevent")!;
  const line = ev
    .getAllProperties("attendee")
    .find((a) => String(a.getFirstValue()).toLowerCase() === `mailto:${email}`);
  return line?.getParameter("partstat") as string | undefined;
}

describe("invitees' answers come back by mail", () => {
  it("Maria accepts in her mail client: the card says “Maria accepted”, the ledger records it, and Radicale marks her ACCEPTED", async () => {
    await world();
    const { jobId, invite } = await bookedMeeting();
    const uid = String(invite.getFirstSubcomponent("vevent")!.getFirstPropertyValue("uid"));
    expect(await partstatInCalendar(uid)).toBe("NEEDS-ACTION");
    await dovecot.deliver(await replyMail(invite, { partstat: "ACCEPTED" }));
    await w!.office.inbound.check();
    await settle();

    const [reply] = replies(jobId);
    expect(replies(jobId)).toHaveLength(1);
    expect(reply!.payload).toMatchObject({
      event_uid: uid,
      answer: "accepted",
      attendee: { name: "Maria", email_redacted: "m***@acme.com" },
      sequence: 0,
    });
    expect(JSON.stringify(reply)).not.toContain("maria@acme.com");
    expect(answerCalls(jobId).map((e) => [e.event_type, (e.payload as { status?: string }).status])).toEqual([
      ["tool.called", undefined],
      ["tool.result", "success"],
    ]);
    const c = card(w!, jobId);
    expect(c.outcome.summary).toMatch(
      /^Maria accepted\. Marked so in the calendar “Work”\. Created a 30-minute invite/,
    );
    expect(await partstatInCalendar(uid)).toBe("ACCEPTED");
    expect(stateOf(w!, jobId)).toBe("completed");
    // Read once, marked read; the mailbox row says it was recorded on this job.
    expect((await dovecot.count()).seen).toBe((await dovecot.count()).total);
    expect(w!.office.inbound.list("tnt_acme_001", jobId).map((r) => r.status)).toEqual(["recorded"]);
    // Reading again records nothing twice.
    await w!.office.inbound.check();
    expect(replies(jobId)).toHaveLength(1);
  }, 60_000);

  it("Maria declines with a reason: “Maria declined: ‘travelling that week’”, DECLINED in the calendar", async () => {
    await world();
    const { jobId, invite } = await bookedMeeting();
    const uid = String(invite.getFirstSubcomponent("vevent")!.getFirstPropertyValue("uid"));
    await dovecot.deliver(await replyMail(invite, { partstat: "DECLINED", comment: "travelling that week" }));
    await w!.office.inbound.check();
    await settle();
    expect(replies(jobId).map((r) => [r.payload.answer, r.payload.comment])).toEqual([
      ["declined", "travelling that week"],
    ]);
    expect(card(w!, jobId).outcome.summary).toMatch(
      /^Maria declined: “travelling that week” Marked so in the calendar “Work”\./,
    );
    expect(await partstatInCalendar(uid)).toBe("DECLINED");
    // “Why?” tells the same story, from the same record, in the reader's language.
    const why = async (lang: string) =>
      (await w!.office.explainJob("tnt_acme_001", jobId, lang)).lines
        .filter((l) => l.event_type === "job.reply_received")
        .map((l) => l.text);
    expect(await why("en")).toEqual(["Maria declined: “travelling that week”"]);
    expect(await why("pt")).toEqual(["Maria recusou: “travelling that week”"]);
  }, 60_000);

  it("a counter-proposal is recorded with the time Maria proposed, and the calendar is left as it is", async () => {
    await world();
    const { jobId, invite } = await bookedMeeting();
    const uid = String(invite.getFirstSubcomponent("vevent")!.getFirstPropertyValue("uid"));
    await dovecot.deliver(
      await replyMail(invite, {
        method: "COUNTER",
        start: "2026-01-08T10:00:00Z",
        end: "2026-01-08T10:30:00Z",
        comment: "mornings are better",
      }),
    );
    await w!.office.inbound.check();
    await settle();
    expect(replies(jobId).map((r) => r.payload.proposed)).toEqual([
      { start: "2026-01-08T10:00:00.000Z", end: "2026-01-08T10:30:00.000Z", timezone: "UTC" },
    ]);
    expect(card(w!, jobId).outcome.summary).toMatch(
      /^Maria proposed another time: Thu 8 Jan 2026, 10:00–10:30 \(UTC\) \(“mornings are better”\)\./,
    );
    expect(answerCalls(jobId)).toHaveLength(0);
    expect(await partstatInCalendar(uid)).toBe("NEEDS-ACTION");
  }, 60_000);

  it("refuses and records a spoofed sender, a stranger's answer, a malformed calendar, a mail that is no answer and a huge mail; the reader keeps going", async () => {
    await world();
    const { jobId, invite } = await bookedMeeting();
    const uid = String(invite.getFirstSubcomponent("vevent")!.getFirstPropertyValue("uid"));
    const before = w!.office.inbound.all().length;
    await dovecot.deliver(await replyMail(invite, { partstat: "ACCEPTED", from: "Mallory <mallory@evil.test>" }));
    await dovecot.deliver(
      await replyMail(invite, { partstat: "ACCEPTED", from: "eve@acme.com", attendee: "eve@acme.com" }),
    );
    await dovecot.deliver(
      await new MailComposer({
        from: "maria@acme.com",
        to: ORGANIZER,
        subject: "Accepted",
        text: "x",
        icalEvent: { method: "REPLY", content: "BEGIN:VCALENDAR\r\nMETHOD:REPLY\r\nBEGIN:VEVENT\r\nUID:" },
      })
        .compile()
        .build(),
    );
    await dovecot.deliver(
      "From: maria@acme.com\r\nTo: organizer@example.test\r\nSubject: Lunch?\r\n\r\nAre you free for lunch?\r\n",
    );
    await dovecot.deliver(
      `From: maria@acme.com\r\nTo: organizer@example.test\r\nSubject: Big\r\n\r\n${"x".repeat(300_000)}\r\n`,
    );
    const other = await replyMail(invite, { partstat: "ACCEPTED" });
    await dovecot.deliver(other.toString("utf8").replace(new RegExp(`UID:${uid}`), "UID:someone-elses-event"));
    await w!.office.inbound.check();
    await settle();
    const rows = w!.office.inbound.all().slice(before);
    expect(rows.map((r) => [r.status, r.reason])).toEqual([
      ["refused", "spoofed_sender"],
      ["refused", "not_invited"],
      ["refused", "malformed"],
      ["refused", "not_calendar"],
      ["refused", "too_large"],
      ["refused", "no_match"],
    ]);
    expect(replies(jobId)).toHaveLength(0);
    expect(await partstatInCalendar(uid)).toBe("NEEDS-ACTION");
    // Still reading: Maria's own answer after all that is recorded.
    await dovecot.deliver(await replyMail(invite, { partstat: "TENTATIVE" }));
    await w!.office.inbound.check();
    await settle();
    expect(replies(jobId).map((r) => r.payload.answer)).toEqual(["tentative"]);
    expect(await partstatInCalendar(uid)).toBe("TENTATIVE");
  }, 60_000);

  it("mailbox down: the reader says so and retries with backoff; the answer that waited is recorded once it is back", async () => {
    await world();
    const { jobId, invite } = await bookedMeeting();
    await dovecot.deliver(await replyMail(invite, { partstat: "ACCEPTED" }));
    await dovecot.pause();
    try {
      // The server's processes end a moment after it stops: look until the reader has noticed.
      for (let i = 0; i < 100; i++) {
        await w!.office.inbound.check();
        if (!(w!.office.inbound.status() as { connected?: boolean }).connected) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const down = w!.office.inbound.status();
      expect(down).toMatchObject({ configured: true, connected: false });
      expect(down.configured && down.failures).toBeGreaterThan(0);
      expect(replies(jobId)).toHaveLength(0);
    } finally {
      await dovecot.start();
    }
    // The backoff timer (2 s on the injected clock) reconnects and reads what waited.
    await w!.clock.advance(2_000);
    for (let i = 0; i < 100 && replies(jobId).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await settle();
    expect(replies(jobId).map((r) => r.payload.answer)).toEqual(["accepted"]);
    expect(w!.office.inbound.status()).toMatchObject({ configured: true, connected: true, failures: 0 });
  }, 60_000);

  it("calendar down: the answer is recorded and the card says the calendar was not marked yet and when it tries again; then it is", async () => {
    await world({ calendarTimeoutMs: 2_000 });
    const { jobId, invite } = await bookedMeeting();
    const uid = String(invite.getFirstSubcomponent("vevent")!.getFirstPropertyValue("uid"));
    await dav!.pause();
    await dovecot.deliver(await replyMail(invite, { partstat: "ACCEPTED" }));
    await w!.office.inbound.check();
    await settle();
    expect(replies(jobId)).toHaveLength(1);
    const down = card(w!, jobId).outcome.summary;
    expect(down).toMatch(
      /^Maria accepted\. Not marked in the calendar yet: .+ Trying again at \d\d:\d\d \(Europe\/Lisbon\)\./,
    );
    expect(down).not.toContain("Marked so");
    await dav!.resume();
    expect(await partstatInCalendar(uid)).toBe("NEEDS-ACTION");
    await w!.clock.advance(11_000);
    await settle();
    expect(
      answerCalls(jobId).map((e) => [
        e.event_type,
        (e.payload as { status?: string; attempt?: number }).status,
        (e.payload as { attempt?: number }).attempt,
      ]),
    ).toEqual([
      ["tool.called", undefined, 1],
      ["tool.result", "error", 1],
      ["tool.called", undefined, 2],
      ["tool.result", "success", 2],
    ]);
    expect(card(w!, jobId).outcome.summary).toMatch(/^Maria accepted\. Marked so in the calendar “Work”\./);
    expect(await partstatInCalendar(uid)).toBe("ACCEPTED");
  }, 60_000);

  it("a calendar write still owed when the process stops is done after a restart, once", async () => {
    await world({ calendarTimeoutMs: 2_000 });
    const { jobId, invite } = await bookedMeeting();
    const uid = String(invite.getFirstSubcomponent("vevent")!.getFirstPropertyValue("uid"));
    await dav!.pause();
    await dovecot.deliver(await replyMail(invite, { partstat: "DECLINED" }));
    await w!.office.inbound.check();
    await settle();
    expect(answerCalls(jobId).map((e) => (e.payload as { status?: string }).status)).toEqual([undefined, "error"]);
    w!.office.stop();
    await dav!.resume();
    const again = w!.newOffice();
    try {
      await again.start();
      await w!.clock.advance(1_000);
      for (let i = 0; i < 100 && answerCalls(jobId).length < 4; i++) {
        await again.idle();
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(
        answerCalls(jobId).map((e) => [
          (e.payload as { status?: string }).status,
          (e.payload as { attempt?: number }).attempt,
        ]),
      ).toEqual([
        [undefined, 1],
        ["error", 1],
        [undefined, 2],
        ["success", 2],
      ]);
      expect(replies(jobId)).toHaveLength(1);
      expect(await partstatInCalendar(uid)).toBe("DECLINED");
      expect(card(w!, jobId).outcome.summary).toMatch(/^Maria declined\. Marked so in the calendar “Work”\./);
    } finally {
      again.stop();
    }
  }, 60_000);
});
