import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { startSmtp, type FakeSmtp } from "../office/mail/smtp-fixture.js";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";

/**
 * The e-mail digest over real HTTP and a real SMTP server, on a clock the test moves: what
 * waited on Ana for DIGEST_AFTER_MINUTES and still waits is mailed to her once, with links built
 * from the configured public URL; nothing for what she read in time, nothing once she opted out.
 */
const AFTER = 10;
const MIN = 60_000;
const PUBLIC = "https://chat.example.test";
const clock = createManualClock(Date.parse(DEFAULT_INSTANT));
let t: TestServer;
let smtp: FakeSmtp;
let dan: string;
let ana: string;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestServer({
    clock,
    publicUrl: PUBLIC,
    digestAfterMinutes: AFTER,
    connectors: { mail: { url: smtp.url, from: { name: "Acme Office", address: "office@example.com" } } },
  });
  dan = demoPerson(t, "Dan").token;
  ana = demoPerson(t, "Ana").token;
}, 30_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function put(path: string, token: string, body: unknown) {
  const res = await fetch(`${t.url}${path}`, {
    method: "PUT",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "idempotency-key": `k-${Math.random()}`,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const say = (token: string, text: string) =>
  postJson(`${t.url}/v1/conversations/cnv_dan_ana/messages`, token, { kind: "text", body_text: text });
/** Moves the clock (the digest's timer fires on it) and lets the mail server take what was sent. */
async function passMinutes(n: number) {
  await clock.advance(n * MIN);
  await t.server.gateway.runDigest();
}

describe("the e-mail digest", () => {
  it("is unavailable until Ana has an email on file, then she opts in", async () => {
    expect((await getJson(`${t.url}/v1/me/digest`, ana)).body).toEqual({
      enabled: false,
      available: false,
      reason: "no_email",
      after_minutes: AFTER,
    });
    const early = await put("/v1/me/profile", ana, { email_digest: true });
    expect(early.status).toBe(400);
    expect(early.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { field: "email_digest", reason: "no_email" },
    });
    expect((await put("/v1/me/email", ana, { email: "ana@acme.example" })).status).toBe(200);
    const on = await put("/v1/me/profile", ana, { email_digest: true });
    expect(on.status).toBe(200);
    expect(on.body.email_digest).toBe(true);
    expect((await getJson(`${t.url}/v1/me/digest`, ana)).body).toEqual({
      enabled: true,
      available: true,
      after_minutes: AFTER,
    });
    // Only she may: an admin cannot turn it on for her.
    const forHer = await put("/v1/entities/ent_human_ana/profile", dan, { email_digest: false });
    expect(forHer.status).toBe(403);
  });

  it("mails an unread direct message once, after N minutes, with a link from the public URL", async () => {
    expect((await say(dan, "Can you send me the Lisbon invoice?")).status).toBe(202);
    await passMinutes(AFTER - 1);
    expect(smtp.received).toHaveLength(0);
    await passMinutes(2);
    await waitFor(() => smtp.received.length === 1, 5000, "the digest");
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(["ana@acme.example"]);
    expect(mail.mail.subject).toBe("1 thing is waiting on you in LogLine");
    expect(mail.mail.text).toContain("Can you send me the Lisbon invoice?");
    expect(mail.mail.text).toContain(`${PUBLIC}/c/cnv_dan_ana`);
    expect(mail.mail.text).toContain(`more than ${AFTER} minutes`);
    // Never again for the same message.
    await passMinutes(AFTER * 3);
    expect(smtp.received).toHaveLength(1);
  });

  it("sends nothing for a message read in time", async () => {
    const sent = await say(dan, "Lunch at one?");
    await passMinutes(2);
    expect(
      (await postJson(`${t.url}/v1/conversations/cnv_dan_ana/read`, ana, { cursor: sent.body.cursor })).status,
    ).toBe(202);
    await passMinutes(AFTER * 2);
    expect(smtp.received).toHaveLength(1);
  });

  it("mails a job handed over to her that still waits on her, with a link to the job", async () => {
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "Can you schedule a 30-min call with Maria next week?",
    });
    const jobId = await waitFor(
      async () => {
        const items = (await getJson(`${t.url}/v1/conversations/cnv_9f2a/timeline?limit=200`, dan)).body.items as any[];
        return items.find((i) => i.message.card?.card_type === "job.formalize")?.job_id as string | undefined;
      },
      8000,
      "a proposal",
    );
    // Ana joins the conversation, then Dan hands the job to her.
    expect(
      (await postJson(`${t.url}/v1/conversations/cnv_9f2a/members`, dan, { entity_id: "ent_human_ana" })).status,
    ).toBe(202);
    const h = await postJson(`${t.url}/v1/jobs/${jobId}/hand-over`, dan, {
      to_entity_id: "ent_human_ana",
      note: "yours now",
    });
    expect(h.status).toBe(200);
    await passMinutes(AFTER + 1);
    await waitFor(() => smtp.received.length === 2, 5000, "the second digest");
    const text = smtp.received[1]!.mail.text ?? "";
    expect(text).toContain("Waiting on you");
    expect(text).toContain(`${PUBLIC}/jobs/${jobId}`);
  });

  it("mails a reply in a thread she follows that she has not read, with a link that opens the thread; not one she read", async () => {
    const root = await say(ana, "Which hotel for the Porto trip?");
    expect(root.status).toBe(202);
    const thread = `/v1/conversations/cnv_dan_ana/threads/${root.body.message_id}`;
    const inThread = (text: string) =>
      postJson(`${t.url}/v1/conversations/cnv_dan_ana/messages`, dan, {
        kind: "text",
        body_text: text,
        thread_root_message_id: root.body.message_id,
      });
    // One she reads in time: not mailed.
    const early = await inThread("The one by the river");
    expect(early.status).toBe(202);
    await passMinutes(2);
    const seen = await getJson(`${t.url}${thread}`, ana);
    expect((await postJson(`${t.url}${thread}/read`, ana, { cursor: seen.body.cursor })).status).toBe(202);
    await passMinutes(AFTER * 2);
    expect(smtp.received).toHaveLength(2);
    // One she leaves unread: mailed once, naming the thread.
    expect((await inThread("Booked: two nights from Thursday")).status).toBe(202);
    await passMinutes(AFTER + 1);
    await waitFor(() => smtp.received.length === 3, 5000, "the thread digest");
    const text = smtp.received[2]!.mail.text ?? "";
    expect(text).toContain("New reply in a thread you follow");
    expect(text).toContain("Booked: two nights from Thursday");
    expect(text).not.toContain("The one by the river");
    expect(text).toContain(`${PUBLIC}/c/cnv_dan_ana/t/${root.body.message_id}`);
    await passMinutes(AFTER * 3);
    expect(smtp.received).toHaveLength(3);
  });

  it("sends nothing for a reply in a thread she stopped following", async () => {
    const root = await say(ana, "Anyone for coffee?");
    const thread = `/v1/conversations/cnv_dan_ana/threads/${root.body.message_id}`;
    expect((await postJson(`${t.url}${thread}/follow`, ana, { on: false })).status).toBe(202);
    const r = await postJson(`${t.url}/v1/conversations/cnv_dan_ana/messages`, dan, {
      kind: "text",
      body_text: "Me, at four",
      thread_root_message_id: root.body.message_id,
    });
    expect(r.status).toBe(202);
    await passMinutes(AFTER * 2);
    // Her own root message is no direct message to her: nothing at all is mailed.
    expect(smtp.received).toHaveLength(3);
  });

  it("sends nothing once she opted out", async () => {
    expect((await put("/v1/me/profile", ana, { email_digest: false })).status).toBe(200);
    await say(dan, "Are you there?");
    await passMinutes(AFTER * 2);
    expect(smtp.received).toHaveLength(3);
    expect((await getJson(`${t.url}/v1/me/digest`, ana)).body).toMatchObject({ enabled: false, available: true });
  });
});

describe("without mail configured", () => {
  it("the setting says why it is unavailable, and turning it on is refused", async () => {
    const bare = await startTestServer();
    try {
      const token = demoPerson(bare, "Ana").token;
      expect((await getJson(`${bare.url}/v1/me/digest`, token)).body).toEqual({
        enabled: false,
        available: false,
        reason: "mail_not_configured",
        after_minutes: 30,
      });
      const res = await fetch(`${bare.url}/v1/me/profile`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "idempotency-key": "k-digest-bare",
        },
        body: JSON.stringify({ email_digest: true }),
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as any).error).toMatchObject({
        code: "SERVICE_UNAVAILABLE",
        details: { reason: "mail_not_configured" },
      });
    } finally {
      await bare.close();
    }
  });
});
