import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardFrame, click, openStream } from "../support/golden.js";
import { AWKWARD_INSTANTS, DEFAULT_INSTANT, statedClock } from "../support/clock.js";
import { getJson, postJson, startTestServer, waitFor, type TestServer } from "../support/server.js";

/**
 * Agents speak the person's language, through the real server: Dan's profile says Portuguese, he
 * asks in Portuguese and every card of his job is Portuguese; Ana, with no language set, asks in
 * English in the same workspace and gets English. With DEFAULT_LOCALE=pt, people with no language
 * of their own are answered in Portuguese.
 */
const AGENT = "ent_agent_scheduler";
const put = (url: string, token: string, body: unknown) =>
  fetch(url, {
    method: "PUT",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "idempotency-key": `k-${Math.random()}`,
    },
    body: JSON.stringify(body),
  });

describe("agents in the person's language", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ clock: statedClock(DEFAULT_INSTANT) });
  }, 30_000);
  afterAll(async () => t?.close());

  it("a Portuguese person's request in Portuguese gets Portuguese cards from proposal to outcome", async () => {
    const dan = t.demo.humans[0]!.token;
    expect((await put(`${t.url}/v1/me/profile`, dan, { locale: "pt-PT" })).status).toBe(200);
    const s = openStream(t.url, { token: dan });
    await s.waitFor((f) => f.event === "hello");
    const asked = await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "Marca uma reunião de 30 minutos com a Maria amanhã às 15h",
    });
    expect(asked.status).toBe(202);

    const formalize = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    expect(formalize.title).toBe("Marcar reunião com Maria");
    expect(formalize.summary).toBe("Aqui está a proposta de trabalho. Aprove para começar ou peça alterações.");
    expect(formalize.buttons.map((b: any) => b.label)).toEqual([
      "Aprovar",
      "Rejeitar",
      "Pedir alterações",
      "Perguntar no chat",
    ]);
    // Wednesday 10 June 2026 in Lisbon: "amanhã" is Thursday the 11th.
    expect(formalize.job.goal).toBe(
      "Marcar uma reunião de 30 minutos com Maria (quinta-feira, 11 de junho de 2026, 15:00 (Europe/Lisbon)) e enviar um convite",
    );
    expect(formalize.job.slots).toMatchObject({
      locale: "pt",
      duration_minutes: 30,
      attendee_name: "Maria",
      when: { from_time: "15:00", exact_start: true },
    });
    expect(formalize.job.slots.when.start_date).toBe("2026-06-11");

    expect((await click(t.url, dan, formalize, "job.approve")).status).toBe(202);
    const tracking = (await s.waitFor(cardFrame("job.tracking"))).data.item.message.card;
    // A waiting card says it waits, and on whom (never "in progress").
    expect(tracking.state).toBe("waiting_input");
    expect(tracking.summary).toBe("À espera de Dan. Nada corre até lá.");
    expect(tracking.progress.status_line).toBe("À espera de: o email de Maria + fuso horário + local da reunião");
    expect(tracking.progress.steps.map((x: any) => x.label)).toEqual([
      "Recolher detalhes",
      "Criar convite de calendário",
      "Enviar convite",
    ]);
    const form = tracking.buttons.find((b: any) => b.action.type === "job.provide_input");
    expect(form.label).toBe("Dar informações");
    expect(form.action.input_schema.fields.map((f: any) => f.label)).toEqual([
      "Email de Maria",
      "Fuso horário",
      "Onde se reúnem",
      "Cole o link de reunião",
    ]);

    // A bad answer is refused with the field's error in Portuguese.
    const bad = await postJson(`${t.url}/v1/jobs/${tracking.job_id}/actions`, dan, {
      conversation_id: tracking.conversation_id,
      card_id: tracking.card_id,
      button_id: form.button_id,
      action: form.action,
      input: { maria_email: "not-an-address", timezone: "Europe/Lisbon", meeting_link: "jitsi" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields.maria_email).toBe("Isso não parece um endereço de email.");

    expect((await click(t.url, dan, tracking, "job.provide_input")).status).toBe(202);
    const finished = (await s.waitFor(cardFrame("job.finished"), 15_000, "finished card")).data.item.message.card;
    s.close();
    expect(finished.summary).toBe("Feito. Veja o resultado abaixo.");
    // Every claim is the tool's: the booked instant, the Jitsi room, no calendar, no mail server.
    const events = (
      await getJson(`${t.url}/v1/ledger/query?tenant_id=${t.demo.tenant_id}&job_id=${finished.job_id}&limit=1000`, dan)
    ).body.events as any[];
    const invite = events.find(
      (e) => e.event_type === "tool.result" && e.payload.tool_name === "calendar.create_invite",
    ).payload.output;
    // 15:00 in Lisbon's summer time is 14:00 UTC.
    expect(invite.scheduled_time.start).toBe("2026-06-11T14:00:00.000Z");
    expect(finished.outcome.summary).toMatch(
      /^Criei um convite de 30 minutos “Reunião com Maria” para quinta-feira, 11 de junho de 2026, 15:00–15:30 \(Europe\/Lisbon\) com uma sala Jitsi Meet\. Não foi adicionado a nenhum calendário: nenhum está ligado a este espaço de trabalho\. Não enviado por email: o correio não está configurado neste servidor\./u,
    );
    expect(invite.meeting.type).toBe("jitsi");
    expect(invite.calendar.written).toBe(false);
    expect(finished.buttons.map((b: any) => b.label)).toEqual([
      "Aceitar",
      "Contestar",
      "Seguimento",
      "Perguntar no chat",
    ]);
  }, 40_000);

  it("a person with no language set, in the same workspace, still gets English", async () => {
    const ana = t.demo.humans[1]!.token;
    const made = await postJson(`${t.url}/v1/conversations`, ana, {
      title: "Ana and Office",
      participants: [{ entity_id: AGENT }],
    });
    expect(made.status).toBe(202);
    const cid = made.body.conversation_id as string;
    const s = openStream(t.url, { token: ana });
    await s.waitFor((f) => f.event === "hello");
    expect(
      (
        await postJson(`${t.url}/v1/conversations/${cid}/messages`, ana, {
          kind: "text",
          body_text: "Can you schedule a 30-min call with Maria next week?",
        })
      ).status,
    ).toBe(202);
    const formalize = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    s.close();
    expect(formalize.title).toBe("Schedule call with Maria");
    expect(formalize.summary).toBe("Here’s the job proposal. Approve to start, or request changes.");
    expect(formalize.job.slots.locale).toBeUndefined();
    expect(formalize.buttons.map((b: any) => b.label)).toEqual(["Approve", "Reject", "Request changes", "Ask in chat"]);
  }, 20_000);
});

describe("DEFAULT_LOCALE", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ defaultLocale: "pt" });
  }, 30_000);
  afterAll(async () => t?.close());

  it("answers people without a language of their own in the default; a profile's language wins", async () => {
    const [dan, ana] = [t.demo.humans[0]!.token, t.demo.humans[1]!.token];
    const cid = (
      await postJson(`${t.url}/v1/conversations`, ana, {
        title: "Ana and Office",
        participants: [{ entity_id: AGENT }],
      })
    ).body.conversation_id as string;
    const reply = async (token: string, conversation: string, text: string) => {
      const posted = await postJson(`${t.url}/v1/conversations/${conversation}/messages`, token, {
        kind: "text",
        body_text: text,
      });
      expect(posted.status).toBe(202);
      return waitFor(
        async () => {
          const items = (await getJson(`${t.url}/v1/conversations/${conversation}/timeline`, token)).body
            .items as any[];
          const at = items.findIndex((i) => i.message.message_id === posted.body.message_id);
          return at >= 0 ? items.slice(at + 1).find((i) => i.message.body_text)?.message.body_text : undefined;
        },
        8000,
        "agent reply",
      );
    };
    expect(await reply(ana, cid, "hello")).toBe(
      "Olá Ana! Diga-me do que precisa — por exemplo “marca uma chamada de 30 minutos com a Maria na próxima semana”.",
    );
    expect((await put(`${t.url}/v1/me/profile`, dan, { locale: "en-GB" })).status).toBe(200);
    expect(await reply(dan, "cnv_9f2a", "thanks")).toBe("You’re welcome.");
  }, 30_000);
});

/**
 * "Amanhã às 15h" on the awkward days: weekends in three zones, both sides of each clock change
 * in Europe and the US, New Year's Eve and a leap day. The person lives in the row's zone; the
 * card names tomorrow's date there, exactly.
 */
const TOMORROW_AT_15: Record<string, [weekday: string, day: string]> = {
  "2026-11-27T21:00:00.000Z": ["sábado", "28 de novembro de 2026"],
  "2026-11-28T10:00:00.000Z": ["domingo", "29 de novembro de 2026"],
  "2026-11-28T01:00:00.000Z": ["sábado", "28 de novembro de 2026"],
  "2026-11-28T16:00:00.000Z": ["domingo", "29 de novembro de 2026"],
  "2026-11-27T08:00:00.000Z": ["sábado", "28 de novembro de 2026"],
  "2026-11-27T22:00:00.000Z": ["domingo", "29 de novembro de 2026"],
  "2027-03-27T23:00:00.000Z": ["domingo", "28 de março de 2027"],
  "2027-03-28T22:00:00.000Z": ["segunda-feira", "29 de março de 2027"],
  "2026-10-24T22:00:00.000Z": ["domingo", "25 de outubro de 2026"],
  "2026-10-25T23:00:00.000Z": ["segunda-feira", "26 de outubro de 2026"],
  "2027-03-14T04:00:00.000Z": ["domingo", "14 de março de 2027"],
  "2027-03-15T03:00:00.000Z": ["segunda-feira", "15 de março de 2027"],
  "2026-11-01T03:00:00.000Z": ["domingo", "1 de novembro de 2026"],
  "2026-11-02T04:00:00.000Z": ["segunda-feira", "2 de novembro de 2026"],
  "2026-12-31T23:30:00.000Z": ["sexta-feira", "1 de janeiro de 2027"],
  "2028-02-29T12:00:00.000Z": ["quarta-feira", "1 de março de 2028"],
};

describe.each(AWKWARD_INSTANTS)("“amanhã às 15h” at $name", ({ iso, zone }) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ clock: statedClock(iso) });
  }, 30_000);
  afterAll(async () => t?.close());

  it("names tomorrow in the person's zone", async () => {
    const [weekday, day] = TOMORROW_AT_15[iso]!;
    const dan = t.demo.humans[0]!.token;
    expect((await put(`${t.url}/v1/me/profile`, dan, { locale: "pt-PT", time_zone: zone })).status).toBe(200);
    const s = openStream(t.url, { token: dan });
    await s.waitFor((f) => f.event === "hello");
    const asked = await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "Marca uma reunião de 30 minutos com a Maria amanhã às 15h",
    });
    expect(asked.status).toBe(202);
    const formalize = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    s.close();
    expect(formalize.job.goal).toBe(
      `Marcar uma reunião de 30 minutos com Maria (${weekday}, ${day}, 15:00 (${zone})) e enviar um convite`,
    );
  }, 20_000);
});
