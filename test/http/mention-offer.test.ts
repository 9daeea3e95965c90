import { afterEach, describe, expect, it } from "vitest";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";

/**
 * What the server answers when a message mentions an agent who is not in the conversation: the
 * message is accepted (it is still a message between the people), the answer names the agents
 * who will not answer until added, and after the composer's "Add" (member added, then the
 * message sent) the agent answers exactly once.
 */
let t: TestServer;
afterEach(() => t?.close());

const AGENT = "ent_agent_scheduler";
const ANA = "ent_human_ana";
const dan = () => demoPerson(t, "Dan").token;
const items = async (c: string) =>
  (await getJson(`${t.url}/v1/conversations/${c}/timeline?limit=200`, dan())).body.items as any[];
const fromAgent = async (c: string) => (await items(c)).filter((i) => i.sender.entity_id === AGENT);
const say = (c: string, body_text: string, mentions: string[], key?: string) =>
  postJson(
    `${t.url}/v1/conversations/${c}/messages`,
    dan(),
    { kind: "text", body_text, mentions: mentions.map((entity_id) => ({ entity_id })) },
    key,
  );

describe("a mention of an agent who is not in the conversation", () => {
  it("is accepted and the answer says which agents are not in it; a member's mention says nothing", async () => {
    t = await startTestServer();
    const r = await say(
      "cnv_dan_ana",
      "@Office Scheduler can you schedule a 30-min call with Maria next week?",
      [AGENT],
      "k-offer-1",
    );
    expect(r.status).toBe(202);
    expect(r.body.not_in_conversation).toEqual([AGENT]);
    // The same key and body replay the stored answer, the list included.
    const again = await say(
      "cnv_dan_ana",
      "@Office Scheduler can you schedule a 30-min call with Maria next week?",
      [AGENT],
      "k-offer-1",
    );
    expect(again.body).toEqual(r.body);

    const member = await say("cnv_dan_ana", "@Ana lunch?", [ANA]);
    expect(member.status).toBe(202);
    expect(member.body).not.toHaveProperty("not_in_conversation");
    await t.server.office.idle();
    expect(await fromAgent("cnv_dan_ana")).toEqual([]);
  });

  it("once added, the agent answers the message sent after the add, once", async () => {
    t = await startTestServer();
    const g = await postJson(`${t.url}/v1/conversations`, dan(), {
      title: "Lunch",
      participants: [{ entity_id: ANA }],
    });
    const c = g.body.conversation_id as string;
    expect((await postJson(`${t.url}/v1/conversations/${c}/members`, dan(), { entity_id: AGENT })).status).toBe(202);
    await t.server.office.idle();
    // Nothing here mentioned it before it joined: joining alone says nothing.
    expect(await fromAgent(c)).toEqual([]);

    const r = await say(c, "@Office Scheduler can you schedule a 30-min call with Maria next week?", [AGENT]);
    expect(r.status).toBe(202);
    expect(r.body).not.toHaveProperty("not_in_conversation");
    const card = await waitFor(
      async () => (await fromAgent(c)).find((i) => i.message.card?.card_type === "job.formalize"),
      8000,
      "the agent's proposal",
    );
    expect(card.message.card.title).toMatch(/Maria/);
    await t.server.office.idle();
    expect((await fromAgent(c)).filter((i) => i.message.card?.card_type === "job.formalize")).toHaveLength(1);
  });
});
