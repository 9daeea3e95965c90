import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCalDavCalendar } from "../../src/office/index.js";
import { messageIdDigest } from "../../src/office/jobs/mail-step.js";
import { startSmtp, type FakeSmtp } from "../office/mail/smtp-fixture.js";
import { startRadicale, type Radicale } from "../support/radicale.js";
import { cardFrame, click, openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, waitFor, type TestServer } from "../support/server.js";

/**
 * The golden path through the real server with both connectors configured as a deployment would
 * (SMTP_URL/MAIL_FROM and CALDAV_URL/…): it ends with the invite in the SMTP server's mailbox and
 * the event in Radicale at the booked instant, both named by the job's tool results.
 */
let t: TestServer;
let smtp: FakeSmtp;
let dav: Radicale;
let dan: string;
beforeAll(async () => {
  smtp = await startSmtp();
  dav = await startRadicale();
  t = await startTestServer({
    connectors: {
      mail: { url: smtp.url, from: { name: "Acme Office", address: "office@acme.test" } },
      caldav: { url: dav.url, username: dav.username, password: dav.password },
    },
  });
  dan = t.demo.humans[0]!.token;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await dav?.stop();
});

describe("golden path with mail and a calendar configured", () => {
  it("emails the iMIP invite and writes the event, and the Finished card says exactly that", async () => {
    // Dan gives his own address: the invite he asks for lists him as an attendee too.
    const put = (body: unknown, token = dan) =>
      fetch(`${t.url}/v1/me/email`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "idempotency-key": `k-${Math.random()}`,
        },
        body: JSON.stringify(body),
      });
    for (const bad of [
      { email: "not-an-address" },
      { email: 42 },
      {},
      { email: "dan@acme.test", extra: 1 },
      { email: `${"a".repeat(250)}@acme.test` },
    ]) {
      const r = await put(bad);
      expect(r.status).toBe(400);
      expect((await r.json()).error.code).toBe("VALIDATION_ERROR");
    }
    const set = await put({ email: "dan@acme.test" });
    expect(set.status).toBe(200);
    expect((await set.json()).email).toBe("d***@acme.test");
    expect((await getJson(`${t.url}/v1/session`, dan)).body.email).toBe("d***@acme.test");
    // Nobody else sees it: the directory lists no addresses.
    expect(JSON.stringify((await getJson(`${t.url}/v1/entities`, t.demo.humans[1]!.token)).body)).not.toContain(
      "acme.test",
    );

    const s = openStream(t.url, { token: dan });
    await s.waitFor((f) => f.event === "hello");
    expect(
      (
        await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
          kind: "text",
          body_text: "Can you schedule a 30-min call with Maria next week?",
        })
      ).status,
    ).toBe(202);
    const formalize = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    expect((await click(t.url, dan, formalize, "job.approve")).status).toBe(202);
    const tracking = (await s.waitFor(cardFrame("job.tracking"))).data.item.message.card;
    expect((await click(t.url, dan, tracking, "job.provide_input")).status).toBe(202);
    const finished = (await s.waitFor(cardFrame("job.finished"), 20_000, "finished card")).data.item.message.card;
    s.close();

    const jobId = formalize.job_id;
    const events = (
      await getJson(`${t.url}/v1/ledger/query?tenant_id=${t.demo.tenant_id}&job_id=${jobId}&limit=1000`, dan)
    ).body.events as any[];
    const result = (tool: string) =>
      events.find((e) => e.event_type === "tool.result" && e.payload.tool_name === tool)?.payload;
    const invite = result("calendar.create_invite");
    const mail = result("mail.send");
    expect(invite.status).toBe("success");
    expect(mail.status).toBe("success");

    // The mailbox: one iMIP message, the same event, the ledger's digest of its Message-ID.
    expect(smtp.received).toHaveLength(1);
    const msg = smtp.received[0]!;
    expect(msg.to.sort()).toEqual(["dan@acme.test", "maria@acme.com"]);
    expect(messageIdDigest(msg.mail.messageId!)).toBe(mail.output.message_id_sha256);
    const part = msg.mail.attachments.find((a) => a.contentType === "text/calendar")!;
    expect((part.headers.get("content-type") as { params: Record<string, string> }).params.method).toBe("REQUEST");
    const mailed = new ICAL.Event(
      new ICAL.Component(ICAL.parse(part.content.toString("utf8"))).getFirstSubcomponent("vevent")!,
    );
    expect(mailed.uid).toBe(invite.output.event_uid);
    expect(mailed.startDate.toJSDate().toISOString()).toBe(invite.output.scheduled_time.start);
    expect(mailed.attendees.map((a) => String(a.getFirstValue()).toLowerCase()).sort()).toEqual([
      "mailto:dan@acme.test",
      "mailto:maria@acme.com",
    ]);
    expect(String(mailed.component.getFirstPropertyValue("organizer")).toLowerCase()).toBe("mailto:office@acme.test");

    // The calendar: the event under the same UID at the same instant, on a Tue–Thu at 14:00–17:00 Lisbon.
    const stored = await createCalDavCalendar({ url: dav.url, username: dav.username, password: dav.password }).get(
      invite.output.event_uid,
    );
    const written = new ICAL.Event(new ICAL.Component(ICAL.parse(stored!.ics)).getFirstSubcomponent("vevent")!);
    expect(written.startDate.toJSDate().toISOString()).toBe(invite.output.scheduled_time.start);
    const local = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Lisbon",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hour12: false,
    }).format(new Date(invite.output.scheduled_time.start));
    expect(local).toMatch(/^(Tue|Wed|Thu) (14|15|16):(00|30)$/);

    expect(finished.outcome.summary).toContain(`Added to the calendar “${invite.output.calendar.name}”.`);
    expect(finished.outcome.summary).toContain(
      "Emailed it to m***@acme.com and d***@acme.test; their mail server accepted it (",
    );
    expect(finished.outcome.summary).not.toMatch(/Not emailed|Not added/);

    // Admins see it in the Outbox, sent, with the id the mailbox received.
    const outbox = await getJson(`${t.url}/v1/outbox`, dan);
    expect(outbox.status).toBe(200);
    expect(outbox.body.mail_configured).toBe(true);
    expect(outbox.body.messages).toEqual([
      expect.objectContaining({
        job_id: jobId,
        status: "sent",
        attempts: 1,
        message_id: msg.mail.messageId,
        to_redacted: "m***@acme.com and d***@acme.test",
      }),
    ]);
    const ana = t.demo.humans[1]!.token;
    expect((await getJson(`${t.url}/v1/outbox`, ana)).status).toBe(403);
    await waitFor(
      async () => (await getJson(`${t.url}/v1/jobs/${jobId}`, dan)).body.state === "completed",
      5000,
      "completed",
    );
  });
});
