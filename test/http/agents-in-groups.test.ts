import { afterEach, describe, expect, it } from "vitest";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";

/**
 * Agents in groups, through the real server and Office: with more than one person, an agent
 * answers only when mentioned, replied to, or continuing its own job; with one person it answers
 * everything; typed at in a chat it is not in, it answers once someone adds it.
 */
let t: TestServer;
afterEach(() => t?.close());

const AGENT = "ent_agent_scheduler";
const DAN = "ent_human_dan";
const ANA = "ent_human_ana";
const T = "tnt_acme_001";
const dan = () => demoPerson(t, "Dan").token;
const ana = () => demoPerson(t, "Ana").token;

const items = async (c: string) =>
  (await getJson(`${t.url}/v1/conversations/${c}/timeline?limit=200`, dan())).body.items as any[];
const fromAgent = async (c: string) => (await items(c)).filter((i) => i.sender.entity_id === AGENT);
const say = (c: string, token: string, body_text: string, mentions?: string[]) =>
  postJson(`${t.url}/v1/conversations/${c}/messages`, token, {
    kind: "text",
    body_text,
    ...(mentions ? { mentions: mentions.map((entity_id) => ({ entity_id })) } : {}),
  });

async function threePersonGroup(): Promise<string> {
  const r = await postJson(`${t.url}/v1/conversations`, dan(), {
    title: "Dan, Ana and Office",
    participants: [{ entity_id: ANA }, { entity_id: AGENT }],
  });
  return r.body.conversation_id;
}

describe("an agent in a group with more than one person", () => {
  it("stays silent on a message between people and answers when mentioned", async () => {
    t = await startTestServer();
    const c = await threePersonGroup();
    expect((await say(c, ana(), "Dan, are we still on for lunch?")).status).toBe(202);
    expect((await say(c, dan(), "Yes, one o'clock.")).status).toBe(202);
    await t.server.office.idle();
    expect(await fromAgent(c)).toEqual([]);
    // Office was handed the messages and decided not to speak: nothing is left waiting.
    expect(t.server.office.inboxPending()).toBe(0);

    expect(
      (await say(c, ana(), "@Office Scheduler can you schedule a 30-min call with Maria next week?", [AGENT])).status,
    ).toBe(202);
    const card = await waitFor(
      async () => (await fromAgent(c)).find((i) => i.message.card?.card_type === "job.formalize"),
      8000,
      "the agent's proposal",
    );
    expect(card.message.card.title).toMatch(/Maria/);
  });

  it("answers a reply to its own message, and a person its job is waiting on", async () => {
    t = await startTestServer();
    const c = await threePersonGroup();
    await say(c, dan(), "@Office can you schedule a 30-min call with Maria next week?");
    const card = await waitFor(
      async () => (await fromAgent(c)).find((i) => i.message.card?.card_type === "job.formalize"),
      8000,
      "proposal",
    );
    const before = (await fromAgent(c)).length;

    // A reply (reply_to_message_id) to the agent's message, handed to Office as the ledger has it.
    const reply = await postJson(`${t.url}/v1/office/ingest_message`, ana(), {
      tenant_id: T,
      trace_id: "trc_reply_1",
      conversation_id: c,
      actor_entity_id: ANA,
      body_text: "What time would that be?",
      reply_to_message_id: card.message.message_id,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.emitted_event_ids.length).toBeGreaterThan(0);
    // The same words without the reply are between people.
    const plain = await postJson(`${t.url}/v1/office/ingest_message`, ana(), {
      tenant_id: T,
      trace_id: "trc_reply_2",
      conversation_id: c,
      actor_entity_id: ANA,
      body_text: "What time would that be?",
    });
    expect(plain.body).toMatchObject({ emitted_event_ids: [], notes: "Between people; no agent was addressed" });
    expect((await fromAgent(c)).length).toBeGreaterThan(before);

    // Dan approves: the job now waits on him for details, so his next message is for the agent.
    const b = card.message.card.buttons.find((x: any) => x.action.type === "job.approve");
    expect(
      (
        await postJson(`${t.url}/v1/jobs/${card.job_id}/actions`, dan(), {
          card_id: card.message.card.card_id,
          button_id: b.button_id,
          action: b.action,
        })
      ).status,
    ).toBe(202);
    await waitFor(
      async () => (await getJson(`${t.url}/v1/jobs/${card.job_id}`, dan())).body.state === "waiting_input",
      8000,
      "waiting_input",
    );
    const n = (await fromAgent(c)).length;
    await say(c, dan(), "Tuesday afternoon works, 30 minutes");
    await t.server.office.idle();
    expect((await fromAgent(c)).length).toBeGreaterThan(n);
    // Ana is not the one it waits on: her chatter stays between people.
    const m = (await fromAgent(c)).length;
    await say(c, ana(), "Tuesday is busy for me anyway");
    await t.server.office.idle();
    expect((await fromAgent(c)).length).toBe(m);
  });
});

describe("the agent's mention in front of a request", () => {
  it("is read as the same words in a direct chat: work no tool can do is declined with a hand-over offer, a meeting is proposed", async () => {
    t = await startTestServer();
    const c = await threePersonGroup();
    // The same words in Dan's direct chat with the agent: what a group must answer too.
    await say("cnv_9f2a", dan(), "please order more printer paper");
    const direct = await waitFor(async () => (await fromAgent("cnv_9f2a")).at(-1), 8000, "the direct answer");
    expect(direct.message.body_text).toContain("Order more printer paper");
    expect(direct.message.choices?.length).toBeGreaterThan(0);

    for (const [text, mentions] of [
      ["@Office Scheduler please order more printer paper", [AGENT]],
      ["@Office, please order more printer paper", undefined],
    ] as const) {
      const n = (await fromAgent(c)).length;
      expect((await say(c, dan(), text, mentions ? [...mentions] : undefined)).status).toBe(202);
      await t.server.office.idle();
      const answer = (await fromAgent(c)).slice(n);
      expect(answer.map((i) => i.message.body_text)).toEqual([direct.message.body_text]);
      expect(answer[0].message.choices.map((x: any) => x.label)).toEqual(
        direct.message.choices.map((x: any) => x.label),
      );
    }

    // A meeting asked with the mention first is formalized, as in a direct chat.
    expect((await say(c, ana(), "@Office Scheduler: set up a call with Maria tomorrow at 15:00", [AGENT])).status).toBe(
      202,
    );
    const card = await waitFor(
      async () => (await fromAgent(c)).find((i) => i.message.card?.card_type === "job.formalize"),
      8000,
      "the proposal",
    );
    expect(card.message.card.title).toMatch(/Maria/);
  });
});

describe("one person with an agent", () => {
  it("the agent answers every message, as before", async () => {
    t = await startTestServer();
    await say("cnv_9f2a", dan(), "Can you schedule a 30-min call with Maria next week?");
    await waitFor(
      async () => (await fromAgent("cnv_9f2a")).find((i) => i.message.card?.card_type === "job.formalize"),
      8000,
      "proposal",
    );
  });
});

describe("@Agent in a chat it is not in", () => {
  it("is accepted as a mention; once someone adds the agent, it answers that message", async () => {
    t = await startTestServer();
    expect(
      (
        await say("cnv_dan_ana", dan(), "@Office Scheduler can you schedule a 30-min call with Maria next week?", [
          AGENT,
        ])
      ).status,
    ).toBe(202);
    await t.server.office.idle();
    expect(await fromAgent("cnv_dan_ana")).toEqual([]);
    const add = await postJson(`${t.url}/v1/conversations/cnv_dan_ana/members`, dan(), { entity_id: AGENT });
    expect(add.status).toBe(202);
    const card = await waitFor(
      async () => (await fromAgent("cnv_dan_ana")).find((i) => i.message.card?.card_type === "job.formalize"),
      8000,
      "the agent's answer after joining",
    );
    expect(card.message.card.title).toMatch(/Maria/);
    const events = (
      await getJson(`${t.url}/v1/ledger/query?tenant_id=${T}&conversation_id=cnv_dan_ana&limit=100`, dan())
    ).body.events as any[];
    expect(events.find((e) => e.event_type === "conversation.member_added")).toMatchObject({
      actor: { entity_id: DAN },
      payload: { entity_id: AGENT },
    });
  });
});
