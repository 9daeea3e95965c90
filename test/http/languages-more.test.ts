import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { startSmtp, type FakeSmtp } from "../office/mail/smtp-fixture.js";
import { cardFrame, openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";

/**
 * The rest of the server's words in the reader's language, through the real server and a real
 * SMTP server: Dan (Portuguese profile) asks "porquê?" and gets the job's chain in Portuguese, in
 * chat and from GET …/why; "passa este trabalho à Ana" hands the job over; the Hand over button's
 * route on a Portuguese job writes a Portuguese line; Ana (Portuguese) is notified and mailed
 * the digest in Portuguese. English words stay as they were (the other HTTP tests).
 */
const AFTER = 10;
const MIN = 60_000;
const ANA = "ent_human_ana";
const AGENT = "ent_agent_scheduler";
const clock = createManualClock(Date.parse(DEFAULT_INSTANT));
let t: TestServer;
let smtp: FakeSmtp;
let dan: string;
let ana: string;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await startTestServer({
    clock,
    publicUrl: "https://chat.example.test",
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
  return res.status;
}
const timeline = async (cid: string) =>
  (await getJson(`${t.url}/v1/conversations/${cid}/timeline?limit=200`, dan)).body.items as any[];
const agentLines = async (cid: string) =>
  (await timeline(cid))
    .filter((i) => i.sender?.entity_id === AGENT && !i.message.card)
    .map((i) => i.message.body_text as string);
const ledger = async (type: string) =>
  t.server.ledger.query({ tenant_id: "tnt_acme_001", event_type: type, limit: 1000 }).events as any[];

describe("the server's words in Portuguese", () => {
  let jobId = "";

  it("“porquê?” gets the job's chain in Portuguese, in chat and from GET …/why", async () => {
    expect(await put("/v1/me/profile", dan, { locale: "pt-PT" })).toBe(200);
    const s = openStream(t.url, { token: dan });
    await s.waitFor((f) => f.event === "hello");
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "Marca uma reunião de 30 minutos com a Maria amanhã às 15h",
    });
    const card = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    jobId = card.job_id;
    s.close();

    expect(
      (await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, { kind: "text", body_text: "Porquê?" }))
        .status,
    ).toBe(202);
    const reply = await waitFor(
      async () => (await agentLines("cnv_9f2a")).find((l) => l.startsWith("Porquê")),
      8000,
      "the why reply",
    );
    const lines = reply.split("\n");
    expect(lines[0]).toBe(`Porquê “${card.title}” — a partir do registo:`);
    expect(lines).toContain(
      "• Começou com a mensagem de Dan: “Marca uma reunião de 30 minutos com a Maria amanhã às 15h”",
    );
    expect(lines).toContain(`• Office Scheduler abriu o trabalho “${card.title}”.`);
    expect(
      lines.some((l) =>
        l.startsWith("• Office Scheduler propô-lo para aprovação: Marcar uma reunião de 30 minutos com Maria"),
      ),
    ).toBe(true);

    const why = await getJson(`${t.url}/v1/jobs/${jobId}/why`, dan);
    expect(why.status).toBe(200);
    const proposed = why.body.lines.find((l: any) => l.event_type === "job.proposed");
    expect(proposed.text).toBe(`Office Scheduler propô-lo para aprovação: ${card.job.goal}`);
    // The chain is written for its reader: Ana, with no language of her own, reads it in English.
    expect(
      await postJson(`${t.url}/v1/conversations/cnv_9f2a/members`, dan, { entity_id: ANA }).then((r) => r.status),
    ).toBe(202);
    const forAna = await getJson(`${t.url}/v1/jobs/${jobId}/why`, ana);
    expect(forAna.body.lines.find((l: any) => l.event_type === "job.proposed").text).toBe(
      `Office Scheduler proposed it for approval: ${card.job.goal}`,
    );
  }, 30_000);

  it("“passa este trabalho à Ana” hands the job over, answered in Portuguese; Ana is told and mailed in Portuguese", async () => {
    expect(await put("/v1/me/profile", ana, { locale: "pt-PT" })).toBe(200);
    expect(await put("/v1/me/email", ana, { email: "ana@acme.example" })).toBe(200);
    expect(await put("/v1/me/profile", ana, { email_digest: true })).toBe(200);
    const s = openStream(t.url, { token: ana });
    await s.waitFor((f) => f.event === "hello");
    const title = (await getJson(`${t.url}/v1/jobs/${jobId}/why`, dan)).body.title;

    // Someone not in the conversation: refused in Portuguese, nothing written.
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "entrega isto ao Zé",
    });
    const refused = await waitFor(
      async () => (await agentLines("cnv_9f2a")).find((l) => l.includes("Zé")),
      8000,
      "the refusal",
    );
    expect(refused).toBe(`Não encontrei ninguém chamado Zé nesta conversa, por isso “${title}” não foi passado.`);
    expect(await ledger("job.handed_over")).toHaveLength(0);

    expect(
      (
        await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
          kind: "text",
          body_text: "passa este trabalho à Ana",
        })
      ).status,
    ).toBe(202);
    const done = await waitFor(
      async () => (await agentLines("cnv_9f2a")).find((l) => l.startsWith("Feito")),
      8000,
      "the hand-over reply",
    );
    const handed = (await ledger("job.handed_over")).filter((e) => e.job_id === jobId);
    expect(handed).toHaveLength(1);
    expect(handed[0].payload).toMatchObject({ from_entity_id: AGENT, to_entity_id: ANA });
    expect(done).toBe(`Feito — “${title}” é agora de Ana. Deixei de trabalhar nele.`);

    const n = (await s.waitFor((f) => f.event === "notification" && f.data.notification.job_id === jobId)).data
      .notification;
    expect(n.title).toBe(`Passado para si: ${title}`);
    expect(n.body).toBe("Dan passou-lhe este trabalho");
    s.close();

    await clock.advance((AFTER + 1) * MIN);
    await t.server.gateway.runDigest();
    await waitFor(() => smtp.received.length >= 1, 5000, "the digest");
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual(["ana@acme.example"]);
    expect(mail.mail.subject).toBe("1 coisa está à sua espera no LogLine");
    expect(mail.mail.text).toContain(`• À sua espera: Passado para si: ${title}`);
    expect(mail.mail.text).toContain("Dan passou-lhe este trabalho");
  }, 30_000);

  it("the Hand over button's route on a Portuguese job writes its line in Portuguese and tells Ana in Portuguese", async () => {
    const s = openStream(t.url, { token: ana });
    await s.waitFor((f) => f.event === "hello");
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "@Office Scheduler agenda uma chamada com o João na sexta às 10:00",
    });
    const card = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    expect(card.job.slots.locale).toBe("pt");
    const r = await postJson(`${t.url}/v1/jobs/${card.job_id}/hand-over`, dan, {
      to_entity_id: ANA,
      note: "conheces o João",
    });
    expect(r.status).toBe(200);
    const n = (await s.waitFor((f) => f.event === "notification" && f.data.notification.job_id === card.job_id)).data
      .notification;
    expect(n.title).toBe(`Passado para si: ${card.title}`);
    expect(n.body).toBe("Dan passou-lhe este trabalho: conheces o João");
    s.close();
    const line = (await timeline("cnv_9f2a")).find((i) => i.message.kind === "system" && i.job_id === card.job_id);
    expect(line.message.body_text).toBe(`Dan passou “${card.title}” para Ana: conheces o João`);
  }, 30_000);

  it("with no open job left, a hand-over phrase is answered in Portuguese and writes nothing", async () => {
    const before = (await ledger("job.handed_over")).length;
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "Podes passar o trabalho para a Ana, por favor?",
    });
    await waitFor(
      async () => (await agentLines("cnv_9f2a")).includes("Não há aqui nenhum trabalho em aberto para passar."),
      8000,
      "the answer",
    );
    expect((await ledger("job.handed_over")).length).toBe(before);
  }, 30_000);
});
