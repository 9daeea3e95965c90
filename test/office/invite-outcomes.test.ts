import ICAL from "ical.js";
import { afterEach, describe, expect, it } from "vitest";
import type { TStoredEvent } from "../../contracts/events.js";
import { createCalDavCalendar } from "../../src/office/index.js";
import { messageIdDigest } from "../../src/office/jobs/mail-step.js";
import { startRadicale, type Radicale } from "../support/radicale.js";
import { freePort, startSmtp, type FakeSmtp } from "./mail/smtp-fixture.js";
import { AGENT, click, CONV, DAN, GOLDEN_INPUT, setupWorld, T, TRACE, type World } from "./helpers.js";
import { card, completeGolden, stateOf } from "./flows.js";

/**
 * The honesty walk: for each way the work can go, every claim on the job's last card is checked
 * against the tool results in the ledger — against real SMTP and CalDAV servers on loopback.
 */

let w: World;
let smtp: FakeSmtp | undefined;
let dav: Radicale | undefined;
afterEach(async () => {
  w?.cleanup();
  await smtp?.close();
  await dav?.stop();
  smtp = undefined;
  dav = undefined;
});

const FROM = { address: "office@acme.test", name: "Acme Office" };
const mailAgent = [{ id: AGENT, name: "Office Scheduler", allowed_tools: ["calendar.create_invite", "mail.send"] }];
const results = (jobId: string, tool?: string) =>
  w
    .events(jobId)
    .filter(
      (e): e is TStoredEvent & { payload: any } =>
        e.event_type === "tool.result" && (!tool || (e.payload as any).tool_name === tool),
    );
const _summaryOf = (c: any): string => c.outcome?.summary ?? c.progress?.status_line;
const settle = async () => {
  for (let i = 0; i < 50; i++) {
    await w.office.idle();
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function mailWorld(extra: Record<string, unknown> = {}) {
  w = await setupWorld({
    agents: mailAgent,
    office: { mail: { url: smtp!.url, from: FROM }, mailSchedule: [30_000, 120_000], ...extra },
  });
  await w.office.start();
}

describe("what the cards say is what the ledger proves", () => {
  it("no mail, no calendar (the npm start default): created, with a Jitsi room, and says plainly it was not emailed", async () => {
    w = await setupWorld();
    const jobId = await completeGolden(w);
    expect(stateOf(w, jobId)).toBe("completed");
    const [invite] = results(jobId);
    expect(results(jobId)).toHaveLength(1);
    const out = invite!.payload.output;
    expect(out.calendar).toEqual({ written: false, reason: "not_configured" });
    expect(out.meeting.url).toMatch(/^https:\/\/meet\.jit\.si\/LogLine-[a-z]{4}-[a-z]{6}-[a-z]{14}$/);
    const c = card(w, jobId);
    expect(c.card_type).toBe("job.finished");
    expect(c.outcome.summary).toContain(
      "with a Jitsi Meet room. Not added to any calendar: none is connected to this workspace.",
    );
    expect(c.outcome.summary).toContain("Not emailed: mail is not set up on this server.");
    expect(c.outcome.summary).not.toMatch(/sent it|emailed it|added to the calendar “/i);
    // Every link on the card is one a tool result recorded.
    for (const a of c.artifacts) expect(invite!.payload.artifacts.map((x: any) => x.url)).toContain(a.url);
    expect(c.artifacts.find((a: any) => a.kind === "link").url).toBe(out.meeting.url);
  });

  it("books what was asked, at the instant asked: “January 5 at 3pm Lisbon time”", async () => {
    w = await setupWorld();
    const r = await w.office.ingestMessage({
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: CONV,
      actor_entity_id: DAN,
      body_text: "Schedule a 30-min call with maria@acme.com on January 5 at 3pm Lisbon time",
    });
    const jobId = r.job_id!;
    await w.office.jobAction(click(card(w, jobId), "Approve"));
    await w.office.jobAction(click(card(w, jobId), "Provide info", { meeting_link: "jitsi" }));
    expect(stateOf(w, jobId)).toBe("completed");
    // The clock reads 27 Dec 2025: the next 5 January is in 2026; Lisbon is on UTC+0 in winter.
    expect(results(jobId)[0]!.payload.output.scheduled_time).toEqual({
      start: "2026-01-05T15:00:00.000Z",
      end: "2026-01-05T15:30:00.000Z",
      timezone: "Europe/Lisbon",
    });
    expect(card(w, jobId).outcome.summary).toMatch(
      /^Created a 30-minute invite “Call with Maria” for Mon 5 Jan 2026, 15:00–15:30 \(Europe\/Lisbon\)/,
    );
  });

  it("mail sent: the invite reaches the SMTP server as iMIP, and the card quotes the server's answer", async () => {
    smtp = await startSmtp();
    await mailWorld();
    const jobId = await completeGolden(w);
    await settle();
    expect(stateOf(w, jobId)).toBe("completed");
    const invite = results(jobId, "calendar.create_invite")[0]!.payload.output;
    const sent = results(jobId, "mail.send");
    expect(sent.map((e) => e.payload.status)).toEqual(["success"]);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(["maria@acme.com"]);
    // The ledger keeps the Message-ID's SHA-256 (the id is address-shaped); it matches the email received.
    expect(messageIdDigest(mail.mail.messageId!)).toBe(sent[0]!.payload.output.message_id_sha256);
    expect(mail.mail.messageId).toMatch(/^<obx_[a-z]+@acme\.test>$/);
    // iMIP: a text/calendar part with method=REQUEST, and the same .ics attached.
    const calendarPart = mail.mail.attachments.find((a) => a.contentType === "text/calendar")!;
    expect((calendarPart.headers.get("content-type") as { params: Record<string, string> }).params.method).toBe(
      "REQUEST",
    );
    expect(mail.mail.attachments.some((a) => a.filename === "invite.ics")).toBe(true);
    const ics = calendarPart.content.toString("utf8");
    const ev = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent("vevent")!);
    expect(ev.uid).toBe(invite.event_uid);
    expect(ev.startDate.toJSDate().toISOString()).toBe(invite.scheduled_time.start);
    expect(ev.attendees.map((a) => String(a.getFirstValue()).toLowerCase())).toContain("mailto:maria@acme.com");
    expect(String(ev.component.getFirstPropertyValue("organizer")).toLowerCase()).toBe("mailto:office@acme.test");
    const summary = card(w, jobId).outcome.summary;
    expect(summary).toContain(
      `Emailed it to m***@acme.com; their mail server accepted it (${sent[0]!.payload.output.server_response}`,
    );
  });

  it("mail refused (550): the job waits, the card says it was not emailed; Resend delivers it", async () => {
    smtp = await startSmtp();
    smtp.rcptReplies.push({ code: 550, message: "5.1.1 Mailbox unavailable" });
    await mailWorld();
    const jobId = await completeGolden(w);
    await settle();
    expect(stateOf(w, jobId)).toBe("waiting_input");
    expect(results(jobId, "mail.send").map((e) => [e.payload.status, e.payload.error?.retryable])).toEqual([
      ["error", false],
    ]);
    const c = card(w, jobId);
    expect(c.progress.status_line).toContain("Not emailed: the mail server refused it (");
    expect(c.progress.status_line).toContain("Mailbox unavailable");
    expect(c.progress.status_line).not.toMatch(/Emailed it/);
    expect(smtp.received).toHaveLength(0);
    await w.office.jobAction(click(c, "Resend"));
    await settle();
    expect(stateOf(w, jobId)).toBe("completed");
    expect(smtp.received).toHaveLength(1);
    expect(results(jobId, "mail.send").map((e) => e.payload.status)).toEqual(["error", "success"]);
  });

  it("mail server down, then back: the card says it will retry, then that it was sent", async () => {
    const port = await freePort();
    smtp = { url: `smtp://127.0.0.1:${port}`, close: async () => undefined } as FakeSmtp;
    await mailWorld();
    const jobId = await completeGolden(w);
    await settle();
    expect(stateOf(w, jobId)).toBe("in_progress");
    const waiting = card(w, jobId).progress.status_line;
    expect(waiting).toMatch(/Not emailed yet: .*Trying again at \d\d:\d\d\./);
    smtp = await startSmtp({ port });
    await w.clock.advance(31_000);
    await settle();
    expect(stateOf(w, jobId)).toBe("completed");
    expect(smtp.received).toHaveLength(1);
    expect(results(jobId, "mail.send").map((e) => [e.payload.status, e.payload.retryable])).toEqual([
      ["error", true],
      ["success", false],
    ]);
  });

  it("CalDAV connected: the busy hour is skipped, the event is written once at the instant on the card", async () => {
    dav = await startRadicale();
    const calendar = createCalDavCalendar({ url: dav.url, username: dav.username, password: dav.password });
    // 27 Dec 2025 is a Saturday: the window "Tue–Thu, 14:00–17:00" (Lisbon, UTC+0) opens Tue 30 Dec.
    await calendar.put(
      "busy-1",
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//test//EN",
        "BEGIN:VEVENT",
        "UID:busy-1",
        "DTSTAMP:20251227T100000Z",
        "DTSTART:20251230T140000Z",
        "DTEND:20251230T150000Z",
        "SUMMARY:Busy",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
    );
    w = await setupWorld({ office: { calendarProvider: calendar } });
    const jobId = await completeGolden(w);
    expect(stateOf(w, jobId)).toBe("completed");
    const out = results(jobId)[0]!.payload.output;
    expect(out.scheduled_time.start).toBe("2025-12-30T15:00:00.000Z");
    expect(out.calendar).toEqual({ written: true, created: true, name: "Work" });
    const stored = await calendar.get(out.event_uid);
    const ev = new ICAL.Event(new ICAL.Component(ICAL.parse(stored!.ics)).getFirstSubcomponent("vevent")!);
    expect(ev.startDate.toJSDate().toISOString()).toBe(out.scheduled_time.start);
    expect(card(w, jobId).outcome.summary).toContain("Added to the calendar “Work”.");
  });

  it("CalDAV down: nothing is claimed, the card says the calendar is unavailable and when it retries", async () => {
    dav = await startRadicale();
    const calendar = createCalDavCalendar(
      { url: dav.url, username: dav.username, password: dav.password },
      { timeoutMs: 3_000 },
    );
    await dav.stop();
    dav = undefined;
    w = await setupWorld({ office: { calendarProvider: calendar } });
    const jobId = await completeGolden(w);
    expect(stateOf(w, jobId)).toBe("in_progress");
    expect(results(jobId).map((e) => e.payload.error?.error_code)).toEqual(["PROVIDER_UNAVAILABLE"]);
    const c = card(w, jobId);
    expect(c.card_type).toBe("job.tracking");
    expect(c.progress.status_line).toMatch(/^Calendar provider is unavailable\. Retrying in ~10 seconds\.$/);
    expect(JSON.stringify(c)).not.toMatch(/Created a|Added to the calendar|Emailed/);
    expect(GOLDEN_INPUT.meeting_link).toBe("jitsi");
  });
});
