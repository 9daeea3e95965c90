import ICAL from "ical.js";
import { Temporal } from "temporal-polyfill";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCalDavCalendar } from "../../src/office/index.js";
import { startSmtp, type FakeSmtp } from "../office/mail/smtp-fixture.js";
import { cardFrame, click, openStream, timelineOf } from "../support/golden.js";
import { startRadicale, type Radicale } from "../support/radicale.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * Moving and cancelling a booked meeting through the real server: the chat line and the drawer's
 * button, the emails in the SMTP server's mailbox, the event in Radicale, and one truth — the
 * live card (SSE), the timeline after a reload, the Job Drawer and the same after a restart say
 * the same thing.
 */

const CONV = "cnv_9f2a";
let first: TestServer;
let smtp: FakeSmtp;
let dav: Radicale;
let dan: string;
let closed = false;
const errors: string[] = [];
const connectors = () => ({
  mail: { url: smtp.url, from: { name: "Acme Office", address: "office@acme.test" } },
  caldav: { url: dav.url, username: dav.username, password: dav.password },
});

beforeAll(async () => {
  [smtp, dav] = await Promise.all([startSmtp(), startRadicale()]);
  first = await startTestServer({
    keep: true,
    connectors: connectors(),
    logger: {
      info() {},
      warn() {},
      error: (obj: unknown, msg?: string) => void errors.push(`${msg}: ${JSON.stringify(obj)}`),
    },
  });
  dan = first.demo.humans.find((h) => h.display_name === "Dan")!.token;
}, 60_000);
afterAll(async () => {
  if (!closed) await first?.close();
  await Promise.all([smtp?.close(), dav?.stop()]);
});

const latestCard = (items: any[], jobId: string) =>
  items
    .map((i) => i.message.card)
    .filter((c) => c?.job_id === jobId)
    .at(-1);
const drawer = async (url: string, jobId: string) => {
  const body = (await getJson(`${url}/v1/jobs/${jobId}`, dan)).body;
  return body.job ?? body;
};
const actions = (buttons: any[]) => buttons.map((b) => b.label);

function calendarOf(mail: FakeSmtp["received"][number]) {
  const part = mail.mail.attachments.find((a) => a.contentType === "text/calendar")!;
  const ev = new ICAL.Event(
    new ICAL.Component(ICAL.parse(part.content.toString("utf8"))).getFirstSubcomponent("vevent")!,
  );
  return {
    method: (part.headers.get("content-type") as { params: Record<string, string> }).params.method,
    uid: ev.uid,
    sequence: ev.sequence,
    start: ev.startDate.toJSDate().toISOString(),
    status: ev.component.getFirstPropertyValue("status"),
  };
}

describe("a booked meeting moved from the chat and cancelled from the drawer", () => {
  it("REQUEST with SEQUENCE 1 at the new time, then CANCEL; Radicale follows; card, timeline, drawer and restart agree", async () => {
    const s = openStream(first.url, { token: dan });
    await s.waitFor((f) => f.event === "hello");
    await postJson(`${first.url}/v1/conversations/${CONV}/messages`, dan, {
      kind: "text",
      body_text: "Can you schedule a 30-min call with Maria next week?",
    });
    const formalize = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    expect((await click(first.url, dan, formalize, "job.approve")).status).toBe(202);
    const tracking = (await s.waitFor(cardFrame("job.tracking"))).data.item.message.card;
    expect((await click(first.url, dan, tracking, "job.provide_input")).status).toBe(202);
    const booked = (await s.waitFor(cardFrame("job.finished"), 20_000, "finished card")).data.item.message.card;
    expect(actions(booked.buttons)).toEqual(expect.arrayContaining(["Move…", "Cancel meeting"]));
    const invite = calendarOf(smtp.received.at(-1)!);
    expect(invite).toMatchObject({ method: "REQUEST", sequence: 0 });

    // The chat line proposes the move; Dan approves it; Maria gets the new time.
    await postJson(`${first.url}/v1/conversations/${CONV}/messages`, dan, {
      kind: "text",
      body_text: "move it to Thursday 10am",
    });
    const moveProposal = (
      await s.waitFor((f) => cardFrame("job.formalize")(f) && f.data.item.message.card.job_id !== formalize.job_id)
    ).data.item.message.card;
    expect(moveProposal.parent_job_id).toBe(booked.job_id);
    const sentBefore = smtp.received.length;
    expect((await click(first.url, dan, moveProposal, "job.approve")).status).toBe(202);
    const moved = (
      await s.waitFor(
        (f) => cardFrame("job.finished")(f) && f.data.item.message.card.job_id === moveProposal.job_id,
        20_000,
        "moved card",
      )
    ).data.item.message.card;
    const thursday = Temporal.Instant.fromEpochMilliseconds(first.clock.now())
      .toZonedDateTimeISO("Europe/Lisbon")
      .toPlainDate()
      .add({
        days:
          (4 -
            Temporal.Instant.fromEpochMilliseconds(first.clock.now()).toZonedDateTimeISO("Europe/Lisbon").dayOfWeek +
            7) %
            7 || 7,
      });
    const at = thursday.toZonedDateTime({ timeZone: "Europe/Lisbon", plainTime: "10:00" });
    expect(smtp.received.length).toBe(sentBefore + 1);
    const request = calendarOf(smtp.received.at(-1)!);
    expect(request).toMatchObject({
      method: "REQUEST",
      uid: invite.uid,
      sequence: 1,
      start: new Date(at.epochMilliseconds).toISOString(),
    });
    const calendar = createCalDavCalendar({ url: dav.url, username: dav.username, password: dav.password });
    const stored = new ICAL.Event(
      new ICAL.Component(ICAL.parse((await calendar.get(invite.uid))!.ics)).getFirstSubcomponent("vevent")!,
    );
    expect([stored.startDate.toJSDate().toISOString(), stored.sequence]).toEqual([request.start, 1]);
    expect(moved.outcome.summary).toMatch(
      /^Moved to Thu \d+ \w+ 2026, 10:00–10:30 \(Europe\/Lisbon\); Maria was sent the new time\. Moved in the calendar “Work”\.$/,
    );
    // The booking job's card no longer shows the old time as the meeting's: live, it says the move.
    const rebooked = (
      await s.waitFor(
        (f) =>
          cardFrame("job.finished")(f) &&
          f.data.item.message.card.job_id === booked.job_id &&
          f.data.item.message.card.card_id !== booked.card_id,
        10_000,
        "the booking's card",
      )
    ).data.item.message.card;
    expect(rebooked.outcome.summary).toMatch(
      /^Moved to Thu \d+ \w+ 2026, 10:00–10:30 \(Europe\/Lisbon\); Maria was sent the new time\. Moved in the calendar “Work”\. Booked before for /,
    );
    expect(rebooked.outcome.summary).toContain(moved.outcome.summary);
    expect(actions(rebooked.buttons)).toEqual(expect.arrayContaining(["Move…", "Cancel meeting"]));
    const bookedPanel = await drawer(first.url, booked.job_id);
    expect(bookedPanel.outcome.summary).toBe(rebooked.outcome.summary);
    expect(bookedPanel.actions_card_id).toBe(rebooked.card_id);
    expect(latestCard(await timelineOf(first.url, dan, CONV), booked.job_id)).toEqual(rebooked);

    // Cancel from the drawer of the moved meeting: its actions are the card's buttons.
    const panel = await drawer(first.url, moved.job_id);
    expect(actions(panel.available_actions)).toEqual(actions(moved.buttons));
    const cancelButton = panel.available_actions.find((b: any) => b.label === "Cancel meeting");
    const r = await postJson(`${first.url}/v1/jobs/${moved.job_id}/actions`, dan, {
      conversation_id: CONV,
      card_id: moved.card_id,
      button_id: cancelButton.button_id,
      action: cancelButton.action,
    });
    expect(r.status).toBe(202);
    const cancelProposal = (
      await s.waitFor((f) => cardFrame("job.formalize")(f) && f.data.item.message.card.parent_job_id === moved.job_id)
    ).data.item.message.card;
    expect((await click(first.url, dan, cancelProposal, "job.approve")).status).toBe(202);
    const cancelled = (
      await s.waitFor(
        (f) => cardFrame("job.finished")(f) && f.data.item.message.card.job_id === cancelProposal.job_id,
        20_000,
        "cancelled card",
      )
    ).data.item.message.card;
    s.close();
    expect(calendarOf(smtp.received.at(-1)!)).toMatchObject({
      method: "CANCEL",
      uid: invite.uid,
      sequence: 2,
      status: "CANCELLED",
      start: request.start,
    });
    expect(await calendar.get(invite.uid)).toBeNull();
    expect(cancelled.outcome.summary).toBe("Cancelled; Maria was told. Removed from the calendar “Work”.");
    expect(actions(cancelled.buttons)).not.toContain("Move…");
    // Both earlier versions' jobs say it is cancelled now, and offer no change of it.
    const told = async (url: string) => {
      const items = await timelineOf(url, dan, CONV);
      return [booked.job_id, moved.job_id].map((id) => latestCard(items, id));
    };
    const tellings = await told(first.url);
    for (const c of tellings) {
      expect(c.outcome.summary).toMatch(
        /^Cancelled; Maria was told\. Removed from the calendar “Work”\. Booked before for /,
      );
      expect(actions(c.buttons)).not.toContain("Move…");
      expect(actions(c.buttons)).not.toContain("Cancel meeting");
    }
    expect(tellings[1].outcome.summary).toContain("10:00–10:30");

    // One truth: the live cards, the reloaded timeline and the drawers.
    const views = async (url: string) => {
      const items = await timelineOf(url, dan, CONV);
      return Promise.all(
        [booked, moved, cancelled].map(async (c) => {
          const d = await drawer(url, c.job_id);
          return {
            card: latestCard(items, c.job_id),
            state: d.state,
            actions: actions(d.available_actions),
            summary: d.outcome.summary,
          };
        }),
      );
    };
    const live = [...tellings, cancelled].map((card) => ({
      card,
      state: "completed",
      actions: actions(card.buttons),
      summary: card.outcome.summary,
    }));
    expect(await views(first.url)).toEqual(live);
    expect(errors).toEqual([]);

    await first.close();
    closed = true;
    const second = await startTestServer({ dataDir: first.dataDir, connectors: connectors() });
    try {
      expect(await views(second.url)).toEqual(live);
    } finally {
      await second.close();
    }
  }, 90_000);
});
