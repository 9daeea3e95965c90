import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TStoredEvent } from "../../contracts/events.js";
import { createCalDavCalendar } from "../../src/office/index.js";
import { startDovecot, type Dovecot } from "../support/dovecot.js";
import { replyMail } from "../support/imip-reply.js";
import { startRadicale, type Radicale } from "../support/radicale.js";
import { startSmtp, type FakeSmtp } from "./mail/smtp-fixture.js";
import { AGENT, click, CONV, DAN, GOLDEN_INPUT, setupWorld, T, TRACE, type World } from "./helpers.js";
import { card, completeGolden, stateOf } from "./flows.js";

/**
 * A booked meeting moves and is cancelled: Office emails Maria the invitation (SMTP) and writes
 * it to the organizer's calendar (Radicale); a person clicks Move… or Cancel meeting (or says so
 * in the chat), approves the follow-up job, and Maria's mailbox receives the REQUEST with the
 * same UID and SEQUENCE 1 at the new time, or the CANCEL; Radicale's event follows.
 */

const ORGANIZER = "organizer@example.test";
const TOOLS = [
  "calendar.create_invite",
  "mail.send",
  "calendar.record_answer",
  "calendar.move_invite",
  "calendar.cancel_invite",
  "calendar.decline_counter",
];
let dav: Radicale | undefined;
let smtp: FakeSmtp;
let w: World | undefined;

beforeAll(async () => {
  smtp = await startSmtp();
}, 60_000);
afterAll(async () => {
  await smtp?.close();
});
afterEach(async () => {
  w?.office.stop();
  w?.cleanup();
  w = undefined;
  await dav?.stop();
  dav = undefined;
});

async function world(opts: { calendarTimeoutMs?: number; dovecot?: Dovecot } = {}) {
  dav = await startRadicale();
  const calendar = createCalDavCalendar(
    { url: dav.url, username: dav.username, password: dav.password },
    { timeoutMs: opts.calendarTimeoutMs ?? 5_000 },
  );
  w = await setupWorld({
    agents: [{ id: AGENT, name: "Office Scheduler", allowed_tools: TOOLS }],
    office: {
      mail: { url: smtp.url, from: { address: ORGANIZER, name: "Acme Office" } },
      calendarProvider: calendar,
      ...(opts.dovecot ? { imap: imapOf(opts.dovecot), imapBackoffMs: [2_000] } : {}),
    },
  });
  await w.office.start();
}

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

const settle = async () => {
  for (let i = 0; i < 30; i++) {
    await w!.office.idle();
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** The calendar part of the last mail Maria received since `before`, as ical.js reads it. */
function mariaMail(before: number) {
  const mail = smtp.received.slice(before).find((m) => m.to.includes("maria@acme.com"));
  if (!mail) return undefined;
  const part = mail.mail.attachments.find((a) => a.contentType === "text/calendar")!;
  const cal = new ICAL.Component(ICAL.parse(part.content.toString("utf8")));
  const ev = cal.getFirstSubcomponent("vevent")!;
  return {
    component: cal,
    to: mail.to,
    subject: mail.mail.subject ?? "",
    contentMethod: (part.headers.get("content-type") as { params: Record<string, string> }).params.method,
    method: String(cal.getFirstPropertyValue("method")),
    uid: String(ev.getFirstPropertyValue("uid")),
    sequence: Number(ev.getFirstPropertyValue("sequence")),
    status: ev.getFirstPropertyValue("status") ? String(ev.getFirstPropertyValue("status")) : undefined,
    start: (ev.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().toISOString(),
    end: (ev.getFirstPropertyValue("dtend") as ICAL.Time).toJSDate().toISOString(),
  };
}

async function inCalendar(uid: string) {
  const calendar = createCalDavCalendar({ url: dav!.url, username: dav!.username, password: dav!.password });
  const stored = await calendar.get(uid);
  if (!stored) return null;
  const ev = new ICAL.Component(ICAL.parse(stored.ics)).getFirstSubcomponent("vevent")!;
  return {
    start: (ev.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().toISOString(),
    sequence: Number(ev.getFirstPropertyValue("sequence")),
    method: stored.ics.includes("METHOD:"),
  };
}

async function booked() {
  const before = smtp.received.length;
  const jobId = await completeGolden(w!);
  // The booking's calendar write and invite take a moment on a busy machine: wait for its end.
  await expect.poll(() => stateOf(w!, jobId), { timeout: 15_000 }).toBe("completed");
  await settle();
  const invite = mariaMail(before)!;
  expect(invite).toMatchObject({ method: "REQUEST", sequence: 0 });
  return { jobId, invite };
}

/** The follow-up job a click or a chat line proposed, approved by Dan; returns its id. */
async function approve(jobId: string) {
  await w!.office.jobAction({ ...click(card(w!, jobId), "Approve"), trace_id: TRACE });
  await settle();
}

const childOf = (parent: string) =>
  w!
    .events()
    .filter((e) => e.event_type === "job.created" && (e.payload as { parent_job_id?: string }).parent_job_id === parent)
    .map((e) => e.job_id!)
    .at(-1);

const toolEvents = (jobId: string, name: string) =>
  w!
    .events(jobId)
    .filter(
      (e): e is TStoredEvent =>
        (e.event_type === "tool.called" || e.event_type === "tool.result") &&
        (e.payload as { tool_name: string }).tool_name === name,
    );

describe("moving and cancelling a booked meeting", () => {
  it("Move… from the finished card: approved, Maria receives a REQUEST with the same UID, SEQUENCE 1 and the new DTSTART; Radicale's event moves", async () => {
    await world();
    const { jobId, invite } = await booked();
    const finished = card(w!, jobId);
    expect(finished.buttons.map((b: { label: string }) => b.label)).toEqual(
      expect.arrayContaining(["Move…", "Cancel meeting"]),
    );
    await w!.office.jobAction(click(finished, "Move…", { time_window: "Thursday 10am" }));
    const moveId = childOf(jobId)!;
    expect(moveId).toBeDefined();
    const proposal = card(w!, moveId);
    expect(proposal.card_type).toBe("job.formalize");
    expect(proposal.job.goal).toMatch(
      /^Move “Call with Maria” from .* to Thu 1 Jan 2026, 10:00 \(Europe\/Lisbon\) and send Maria the new time$/,
    );
    // Nothing is sent before someone approves.
    const before = smtp.received.length;
    await settle();
    expect(smtp.received.length).toBe(before);

    await approve(moveId);
    const moved = mariaMail(before)!;
    expect(moved).toMatchObject({ method: "REQUEST", uid: invite.uid, sequence: 1 });
    // Thursday at 10:00 in the job's zone, computed from the instant the test runs at.
    const expected = Temporal.ZonedDateTime.from("2026-01-01T10:00[Europe/Lisbon]").epochMilliseconds;
    expect(moved.start).toBe(new Date(expected).toISOString());
    expect(Date.parse(moved.end) - Date.parse(moved.start)).toBe(Date.parse(invite.end) - Date.parse(invite.start));
    expect(await inCalendar(invite.uid)).toEqual({ start: moved.start, sequence: 1, method: false });

    // The card says what the records prove: the tool's new time, the mail server's acceptance.
    expect(stateOf(w!, moveId)).toBe("completed");
    const [, result] = toolEvents(moveId, "calendar.move_invite");
    expect(result!.payload).toMatchObject({
      status: "success",
      output: { change: "move", sequence: 1, event_uid: invite.uid, scheduled_time: { start: moved.start } },
    });
    expect(toolEvents(moveId, "mail.send").map((e) => (e.payload as { status?: string }).status)).toEqual([
      undefined,
      "success",
    ]);
    expect(card(w!, moveId).outcome.summary).toBe(
      "Moved to Thu 1 Jan 2026, 10:00–10:30 (Europe/Lisbon); Maria was sent the new time. Moved in the calendar “Work”.",
    );
    expect(JSON.stringify(w!.events(moveId))).not.toContain("maria@acme.com");
  }, 60_000);

  it("Cancel meeting: Maria receives METHOD:CANCEL with SEQUENCE 1 and STATUS:CANCELLED; the event leaves Radicale; the meeting cannot be changed again", async () => {
    await world();
    const { jobId, invite } = await booked();
    expect(await inCalendar(invite.uid)).not.toBeNull();
    const bookedCard = card(w!, jobId);
    await w!.office.jobAction(click(bookedCard, "Cancel meeting"));
    const cancelId = childOf(jobId)!;
    const before = smtp.received.length;
    await approve(cancelId);
    const cancel = mariaMail(before)!;
    expect(cancel).toMatchObject({
      method: "CANCEL",
      uid: invite.uid,
      sequence: 1,
      status: "CANCELLED",
      start: invite.start,
    });
    expect(cancel.subject).toMatch(/^Cancelled: Call with Maria/);
    expect(await inCalendar(invite.uid)).toBeNull();
    expect(card(w!, cancelId).outcome.summary).toBe("Cancelled; Maria was told. Removed from the calendar “Work”.");
    // A cancelled meeting offers no Move… or Cancel meeting: the parent's card now says it is
    // cancelled (with the time it had), and its earlier card's Move… is refused.
    expect(card(w!, cancelId).buttons.map((b: { label: string }) => b.label)).not.toContain("Move…");
    expect(card(w!, jobId).outcome.summary).toMatch(
      /^Cancelled; Maria was told\. Removed from the calendar “Work”\. Booked before for /,
    );
    expect(card(w!, jobId).buttons.map((b: { label: string }) => b.label)).not.toContain("Move…");
    await expect(w!.office.jobAction(click(bookedCard, "Move…", { time_window: "Friday 11am" }))).rejects.toMatchObject(
      {
        code: expect.stringMatching(/CONFLICT|INVALID_PROVENANCE/),
      },
    );
  }, 60_000);

  it("a second move sends SEQUENCE 2 from the first move's version", async () => {
    await world();
    const { jobId, invite } = await booked();
    await w!.office.jobAction(click(card(w!, jobId), "Move…", { time_window: "Thursday 10am" }));
    await approve(childOf(jobId)!);
    // Moved again from the original card: the newest version is the one replaced.
    await w!.office.jobAction(click(card(w!, jobId), "Move…", { time_window: "Friday 11am" }));
    const second = childOf(jobId)!;
    const before = smtp.received.length;
    await approve(second);
    const mail = mariaMail(before)!;
    expect(mail).toMatchObject({ method: "REQUEST", uid: invite.uid, sequence: 2 });
    expect(mail.start).toBe(
      new Date(Temporal.ZonedDateTime.from("2026-01-02T11:00[Europe/Lisbon]").epochMilliseconds).toISOString(),
    );
    expect((await inCalendar(invite.uid))?.sequence).toBe(2);
  }, 60_000);

  it("calendar down during a move: an honest retry card, then the move is done when it is back", async () => {
    await world({ calendarTimeoutMs: 1_000 });
    const { jobId, invite } = await booked();
    await w!.office.jobAction(click(card(w!, jobId), "Move…", { time_window: "Thursday 10am" }));
    const moveId = childOf(jobId)!;
    const before = smtp.received.length;
    await dav!.pause();
    try {
      await approve(moveId);
      const c = card(w!, moveId);
      expect(c.card_type).toBe("job.tracking");
      expect(c.progress.status_line).toMatch(
        /^Calendar provider (is unavailable|timed out)\. Retrying in ~\d+ seconds\.$/,
      );
      expect(c.progress.status_line).not.toMatch(/^Moved/);
      expect(toolEvents(moveId, "calendar.move_invite").map((e) => (e.payload as { status?: string }).status)).toEqual([
        undefined,
        "error",
      ]);
      expect(smtp.received.length).toBe(before);
    } finally {
      await dav!.resume();
    }
    await w!.clock.advance(10_000);
    await settle();
    expect(stateOf(w!, moveId)).toBe("completed");
    expect(mariaMail(before)).toMatchObject({ method: "REQUEST", sequence: 1 });
    expect((await inCalendar(invite.uid))?.sequence).toBe(1);
    expect(card(w!, moveId).outcome.summary).toMatch(
      /^Moved to Thu 1 Jan 2026, 10:00–10:30 \(Europe\/Lisbon\); Maria was sent the new time\./,
    );
  }, 60_000);

  it("from the chat: “move the call with Maria to tomorrow 16:00” proposes the move; “cancela a chamada com a Maria” the cancellation", async () => {
    await world();
    const { jobId, invite } = await booked();
    const say = (body_text: string) =>
      w!.office.ingestMessage({
        tenant_id: T,
        trace_id: TRACE,
        conversation_id: CONV,
        actor_entity_id: DAN,
        body_text,
      });
    const r = await say("move the call with Maria to tomorrow 16:00");
    expect(r.job_id).toBe(childOf(jobId));
    expect(card(w!, r.job_id!).job.goal).toMatch(
      / to Sun 28 Dec 2025, 16:00 \(Europe\/Lisbon\) and send Maria the new time$/,
    );
    const before = smtp.received.length;
    await approve(r.job_id!);
    const moved = mariaMail(before)!;
    expect(moved).toMatchObject({ method: "REQUEST", uid: invite.uid, sequence: 1 });
    expect(moved.start).toBe(
      new Date(Temporal.ZonedDateTime.from("2025-12-28T16:00[Europe/Lisbon]").epochMilliseconds).toISOString(),
    );

    // The newest version is the move: cancelling it by name sends SEQUENCE 2.
    const c = await say("cancela a chamada com a Maria");
    expect(w!.events(c.job_id!).find((e) => e.event_type === "job.created")?.payload).toMatchObject({
      parent_job_id: r.job_id,
    });
    const before2 = smtp.received.length;
    await approve(c.job_id!);
    expect(mariaMail(before2)).toMatchObject({ method: "CANCEL", uid: invite.uid, sequence: 2, start: moved.start });
    expect(await inCalendar(invite.uid)).toBeNull();

    // Nothing is left to change: the agent says so instead of proposing anything.
    const again = await say("cancel the call with Maria");
    expect(again.job_id).toBeUndefined();
    const last = w!
      .events()
      .filter((e) => e.event_type === "message.sent")
      .at(-1)!;
    expect((last.payload as { body_text?: string }).body_text).toBe(
      "I found no booked meeting with Maria here that I can cancel.",
    );
  }, 60_000);
});

describe("a reminder follows the meeting", () => {
  it("a moved meeting is reminded of at its new time, once; a cancelled one not at all", async () => {
    await world();
    const text = "Can you schedule a 30-min call with Maria next week? Remind me 15 minutes before";
    const r = await w!.office.ingestMessage({
      tenant_id: T,
      trace_id: TRACE,
      conversation_id: CONV,
      actor_entity_id: DAN,
      body_text: text,
    });
    const jobId = r.job_id!;
    await w!.office.jobAction(click(card(w!, jobId), "Approve"));
    await w!.office.jobAction(click(card(w!, jobId), "Provide info", GOLDEN_INPUT));
    await settle();
    await w!.office.jobAction(click(card(w!, jobId), "Move…", { time_window: "tomorrow 16:00" }));
    const moveId = childOf(jobId)!;
    await approve(moveId);
    const reminders = () =>
      w!.events().filter((e) => e.event_type === "message.sent" && (e.payload as { reminder?: unknown }).reminder);
    const newStart = Temporal.ZonedDateTime.from("2025-12-28T16:00[Europe/Lisbon]").epochMilliseconds;
    await w!.clock.advance(newStart - 15 * 60_000 - w!.clock.now());
    await settle();
    expect(reminders().map((e) => [e.job_id, (e.payload as { body_text: string }).body_text])).toEqual([
      [
        moveId,
        "Reminder for Dan: “Call with Maria” starts in 15 minutes — Sun 28 Dec 2025, 16:00–16:30 (Europe/Lisbon).",
      ],
    ]);
    // Moved again (a reminder is due again), then cancelled before it: nothing more.
    await w!.office.jobAction(click(card(w!, moveId), "Move…", { time_window: "Monday 10am" }));
    const again = childOf(moveId)!;
    await approve(again);
    await w!.office.jobAction(click(card(w!, again), "Cancel meeting"));
    await approve(childOf(again)!);
    await w!.clock.advance(
      Temporal.ZonedDateTime.from("2025-12-29T11:00[Europe/Lisbon]").epochMilliseconds - w!.clock.now(),
    );
    await settle();
    expect(reminders()).toHaveLength(1);
    expect(stateOf(w!, childOf(again)!)).toBe("completed");
  }, 60_000);
});

describe("a counter-proposal answered from its card", () => {
  let dovecot: Dovecot;
  beforeAll(async () => {
    dovecot = await startDovecot();
  }, 60_000);
  afterAll(async () => {
    await dovecot?.stop();
  });

  /** Maria proposes Thu 8 Jan 2026, 10:00–10:30 UTC from her mail client; the card offers Accept new time / Keep original. */
  async function countered() {
    await world({ dovecot });
    const { jobId, invite } = await booked();
    await dovecot.deliver(
      await replyMail(invite.component, {
        method: "COUNTER",
        start: "2026-01-08T10:00:00Z",
        end: "2026-01-08T10:30:00Z",
        comment: "mornings are better",
      }),
    );
    await w!.office.inbound.check();
    await settle();
    const c = card(w!, jobId);
    expect(c.outcome.summary).toMatch(
      /^Maria proposed another time: Thu 8 Jan 2026, 10:00–10:30 \(UTC\) \(“mornings are better”\)\./,
    );
    expect(c.buttons.slice(0, 2).map((b: { label: string }) => b.label)).toEqual(["Accept new time", "Keep original"]);
    return { jobId, invite, card: c };
  }

  it("Accept new time: the move to Maria's time is proposed, approved and sent — REQUEST with SEQUENCE 1 at 10:00 on 8 Jan, and Radicale's event moved", async () => {
    const { jobId, invite, card: c } = await countered();
    await w!.office.jobAction(click(c, "Accept new time"));
    const moveId = childOf(jobId)!;
    expect(card(w!, moveId).job.goal).toMatch(
      / to Thu 8 Jan 2026, 10:00 \(Europe\/Lisbon\) and send Maria the new time$/,
    );
    const before = smtp.received.length;
    await approve(moveId);
    expect(mariaMail(before)).toMatchObject({
      method: "REQUEST",
      contentMethod: "REQUEST",
      uid: invite.uid,
      sequence: 1,
      start: "2026-01-08T10:00:00.000Z",
      end: "2026-01-08T10:30:00.000Z",
    });
    expect(await inCalendar(invite.uid)).toEqual({ start: "2026-01-08T10:00:00.000Z", sequence: 1, method: false });
    expect(card(w!, moveId).outcome.summary).toBe(
      "Moved to Thu 8 Jan 2026, 10:00–10:30 (Europe/Lisbon); Maria was sent the new time. Moved in the calendar “Work”.",
    );
    // The move records the counter-proposal it accepted.
    const proposed = w!.events(moveId).find((e) => e.event_type === "job.proposed")!.payload as unknown as {
      proposed_card: { job: { slots: { change: { reply_event_id: string } } } };
    };
    const reply = w!.events(jobId).find((e) => e.event_type === "job.reply_received")!;
    expect(proposed.proposed_card.job.slots.change.reply_event_id).toBe(reply.event_id);
  }, 60_000);

  it("Keep original: Maria alone receives a DECLINECOUNTER for the same UID and SEQUENCE; the calendar keeps the original time", async () => {
    const { jobId, invite, card: c } = await countered();
    await w!.office.jobAction(click(c, "Keep original"));
    const keepId = childOf(jobId)!;
    const before = smtp.received.length;
    await approve(keepId);
    const mail = mariaMail(before)!;
    expect(mail).toMatchObject({
      method: "DECLINECOUNTER",
      contentMethod: "DECLINECOUNTER",
      uid: invite.uid,
      sequence: 0,
      start: invite.start,
      to: ["maria@acme.com"],
    });
    expect(mail.subject).toMatch(/^Keeping the original time: Call with Maria/);
    expect(await inCalendar(invite.uid)).toEqual({ start: invite.start, sequence: 0, method: false });
    const [, result] = toolEvents(keepId, "calendar.decline_counter");
    expect(result!.payload).toMatchObject({
      status: "success",
      output: { change: "keep", sequence: 0, calendar: { written: false, reason: "unchanged" } },
    });
    expect(card(w!, keepId).outcome.summary).toBe(
      "Kept the original time (Tue 30 Dec 2025, 14:00–14:30 (Europe/Lisbon)); Maria was told.",
    );
  }, 60_000);
});
