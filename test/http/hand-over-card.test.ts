import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardFrame, click, openStream, timelineOf } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * After a hand-over, the chat card and the Job Drawer say the same thing to the same person:
 * the job's latest card names its new holder and offers the person who handed it over no
 * buttons, live, after a reload and after a restart; a click on the card it replaced is refused.
 */

const ANA = "ent_human_ana";
const DAN = "ent_human_dan";
const AGENT = "ent_agent_scheduler";
let first: TestServer;
let dan: string;
let ana: string;
let group = "";
/** What the server logged at error level (a refusal of Office's own events would be here). */
const errors: string[] = [];

/** A job action a person may take on a card: every button but "Ask in chat" (a chat message, not an action). */
const jobActions = (buttons: any[]) => buttons.filter((b) => b.action.type !== "chat.ask").map((b) => b.action.type);
const latestCard = (items: any[], jobId: string) =>
  items
    .map((i) => i.message.card)
    .filter((c) => c?.job_id === jobId)
    .at(-1);
const drawer = async (url: string, token: string, jobId: string) => {
  const body = (await getJson(`${url}/v1/jobs/${jobId}`, token)).body;
  return body.job ?? body;
};

beforeAll(async () => {
  first = await startTestServer({
    keep: true,
    logger: {
      info() {},
      warn() {},
      error: (obj: unknown, msg?: string) => void errors.push(`${msg}: ${JSON.stringify(obj)}`),
    },
  });
  dan = first.demo.humans.find((h) => h.display_name === "Dan")!.token;
  ana = first.demo.humans.find((h) => h.display_name === "Ana")!.token;
  const c = await postJson(`${first.url}/v1/conversations`, dan, {
    title: "Team",
    participants: [{ entity_id: DAN }, { entity_id: ANA }, { entity_id: AGENT }],
  });
  group = c.body.conversation_id;
}, 30_000);
let closed = false;
afterAll(async () => {
  if (!closed) await first?.close();
});

describe("a hand-over replaces the chat card's promises", () => {
  it("live, after a reload and after a restart: no 'waiting on Dan', no buttons for Dan, the same as the drawer; Dan's Got it is refused", async () => {
    const s = openStream(first.url, { token: dan });
    await postJson(`${first.url}/v1/conversations/${group}/messages`, dan, {
      kind: "text",
      body_text: "@Office Scheduler schedule a 30-min call with Maria tomorrow at 15:00",
    });
    const formalize = (await s.waitFor(cardFrame("job.formalize"), 10_000)).data.item.message.card;
    expect((await click(first.url, dan, formalize, "job.approve")).status).toBe(202);
    const waiting = (
      await s.waitFor((f) => cardFrame("job.tracking")(f) && f.data.item.message.card.state === "waiting_input", 10_000)
    ).data.item.message.card;
    expect(waiting.progress.waiting_on.map((w: any) => w.entity_id)).toEqual([DAN]);
    expect(jobActions(waiting.buttons)).toEqual(expect.arrayContaining(["job.ack", "job.provide_input", "job.cancel"]));

    const r = await postJson(`${first.url}/v1/jobs/${waiting.job_id}/hand-over`, dan, { to_entity_id: ANA });
    expect(r.status).toBe(200);
    // Live: a newer card for the job arrives, naming Ana, with nothing for Dan to click.
    const live = (
      await s.waitFor(
        (f) =>
          cardFrame("job.tracking")(f) &&
          f.data.item.message.card.job_id === waiting.job_id &&
          f.data.item.message.card.card_id !== waiting.card_id,
        10_000,
      )
    ).data.item.message.card;
    s.close();
    expect(live.progress.waiting_on.map((w: any) => w.entity_id)).toEqual([ANA]);
    expect(jobActions(live.buttons)).toEqual([]);

    // Reload: the latest card is that one, and it says what the drawer says.
    const reloaded = latestCard(await timelineOf(first.url, dan, group), waiting.job_id);
    expect(reloaded).toEqual(live);
    const header = await drawer(first.url, dan, waiting.job_id);
    expect(header.owner.entity_id).toBe(ANA);
    expect(header.waiting_on.map((w: any) => w.entity_id)).toEqual(
      reloaded.progress.waiting_on.map((w: any) => w.entity_id),
    );
    expect(jobActions(header.available_actions)).toEqual(jobActions(reloaded.buttons));

    // Dan's "Got it" on the card the hand-over replaced is refused, and nothing is written for it.
    const before = first.server.ledger.query({ tenant_id: "tnt_acme_001", job_id: waiting.job_id, limit: 1000 }).events
      .length;
    const got = await click(first.url, dan, waiting, "job.ack");
    expect(got.status).toBe(409);
    expect(got.body.error.message).toMatch(/handed over to Ana/);
    expect(
      first.server.ledger.query({ tenant_id: "tnt_acme_001", job_id: waiting.job_id, limit: 1000 }).events.length,
    ).toBe(before);
    expect((await click(first.url, ana, waiting, "job.provide_input")).status).toBe(409);

    expect(errors).toEqual([]);

    // Restart: the same card and the same drawer.
    await first.close();
    closed = true;
    const second = await startTestServer({ dataDir: first.dataDir });
    try {
      expect(latestCard(await timelineOf(second.url, dan, group), waiting.job_id)).toEqual(live);
      expect(await drawer(second.url, dan, waiting.job_id)).toEqual(header);
    } finally {
      await second.close();
    }
  }, 60_000);
});
