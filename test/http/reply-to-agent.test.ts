import { afterEach, describe, expect, it } from "vitest";
import { getJson, postJson, startTestServer, waitFor, type TestServer, demoPerson } from "../support/server.js";

/**
 * A reply to an agent's message in a group (the Messenger's Reply, `reply_to_message_id` on
 * POST /v1/conversations/:id/messages) is for that agent: it answers without being mentioned.
 * The same words without the reply stay between people.
 */
let t: TestServer;
afterEach(() => t?.close());

const AGENT = "ent_agent_scheduler";
const ANA = "ent_human_ana";
const dan = () => demoPerson(t, "Dan").token;
const ana = () => demoPerson(t, "Ana").token;
const fromAgent = async (c: string) =>
  ((await getJson(`${t.url}/v1/conversations/${c}/timeline?limit=200`, dan())).body.items as any[]).filter(
    (i) => i.sender.entity_id === AGENT,
  );

describe("replying to an agent in a group", () => {
  it("makes the agent answer; the same words without the reply do not", async () => {
    t = await startTestServer();
    const c = (
      await postJson(`${t.url}/v1/conversations`, dan(), {
        title: "Dan, Ana and Office",
        participants: [{ entity_id: ANA }, { entity_id: AGENT }],
      })
    ).body.conversation_id as string;
    await postJson(`${t.url}/v1/conversations/${c}/messages`, dan(), {
      kind: "text",
      body_text: "@Office can you schedule a 30-min call with Maria next week?",
    });
    const card = await waitFor(
      async () => (await fromAgent(c)).find((i) => i.message.card?.card_type === "job.formalize"),
      8000,
      "proposal",
    );
    await t.server.office.idle();

    const before = (await fromAgent(c)).length;
    const plain = await postJson(`${t.url}/v1/conversations/${c}/messages`, ana(), {
      kind: "text",
      body_text: "What time would that be?",
    });
    expect(plain.status).toBe(202);
    await t.server.office.idle();
    expect((await fromAgent(c)).length).toBe(before);

    const reply = await postJson(`${t.url}/v1/conversations/${c}/messages`, ana(), {
      kind: "text",
      body_text: "What time would that be?",
      reply_to_message_id: card.message.message_id,
    });
    expect(reply.status).toBe(202);
    await t.server.office.idle();
    const after = await fromAgent(c);
    expect(after.length).toBeGreaterThan(before);
  });
});
