import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardFrame, click, openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/** The Job Drawer's summary of a booking says what was booked: the time and the room, as the Finished card recorded them. */

let t: TestServer;
let dan: string;
beforeAll(async () => {
  t = await startTestServer();
  dan = t.demo.humans[0]!.token;
}, 30_000);
afterAll(() => t?.close());

describe("the drawer of a finished booking", () => {
  it("carries the Finished card's outcome: the booked time and the meeting room", async () => {
    const s = openStream(t.url, { token: dan });
    await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "Can you schedule a 30-min call with Maria tomorrow at 15:00?",
    });
    const formalize = (await s.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    await click(t.url, dan, formalize, "job.approve");
    const tracking = (await s.waitFor(cardFrame("job.tracking"))).data.item.message.card;
    await click(t.url, dan, tracking, "job.provide_input");
    const finished = (await s.waitFor(cardFrame("job.finished"), 10_000)).data.item.message.card;
    s.close();
    const drawer = (await getJson(`${t.url}/v1/jobs/${finished.job_id}`, dan)).body;
    expect(drawer.outcome).toEqual({ result: finished.outcome.result, summary: finished.outcome.summary });
    expect(drawer.outcome.summary).toMatch(/15:00/);
    expect(drawer.outcome.summary).toMatch(/Jitsi Meet/);
  }, 30_000);
});
