import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * Typing over real HTTP and SSE: a `typing` frame reaches the conversation's other members only,
 * at most once per 2 s per person, is not stored (the ledger head stays put) and is not replayed
 * to a stream that resumes.
 */
const clock = createManualClock(Date.parse("2026-03-02T09:00:00.000Z"));
let t: TestServer;
const DM = "cnv_dan_ana";
const dan = () => t.demo.humans.find((h) => h.display_name === "Dan")!.token;
const ana = () => t.demo.humans.find((h) => h.display_name === "Ana")!.token;
const head = async (token: string) => (await getJson(`${t.url}/v1/conversations`, token)).body.cursor as string;

beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(async () => {
  await t?.close();
});

describe("typing", () => {
  it("reaches the others in the conversation, throttled, and leaves the ledger alone", async () => {
    const a = openStream(t.url, { token: ana() });
    const d = openStream(t.url, { token: dan() });
    await a.waitFor((f) => f.event === "hello");
    await d.waitFor((f) => f.event === "hello");
    const before = await head(dan());

    const r = await postJson(`${t.url}/v1/conversations/${DM}/typing`, dan(), {});
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true });
    const f = await a.waitFor((x) => x.event === "typing");
    expect(f.data).toEqual({
      tenant_id: t.demo.tenant_id,
      conversation_id: DM,
      entity_id: t.demo.humans[0]!.entity_id,
      display_name: "Dan",
      until: "2026-03-02T09:00:06.000Z",
    });
    expect(f.id).toBe(""); // no resume cursor: it is not history

    // Again within 2 s: nothing more; after 2 s: a second frame.
    await postJson(`${t.url}/v1/conversations/${DM}/typing`, dan(), {});
    await clock.advance(2000);
    await postJson(`${t.url}/v1/conversations/${DM}/typing`, dan(), {});
    await a.waitFor((x) => x.event === "typing" && x.data.until === "2026-03-02T09:00:08.000Z");
    expect(a.frames.filter((x) => x.event === "typing")).toHaveLength(2);
    // The typist's own streams are not told.
    expect(d.frames.filter((x) => x.event === "typing")).toHaveLength(0);
    expect(await head(dan())).toBe(before);

    // A stream resuming from before gets no typing frames back.
    const resumed = openStream(t.url, { token: ana(), lastEventId: before });
    await resumed.waitFor((x) => x.event === "hello");
    await new Promise((r) => setTimeout(r, 300));
    expect(resumed.frames.filter((x) => x.event === "typing")).toHaveLength(0);
    for (const s of [a, d, resumed]) s.close();
  });

  it("is refused outside my conversations and for bad bodies, in the standard shape", async () => {
    const g = await postJson(`${t.url}/v1/conversations`, dan(), {
      title: "Dan and Office",
      participants: [{ entity_id: t.demo.agents[0]!.entity_id }],
    });
    const notMine = await postJson(`${t.url}/v1/conversations/${g.body.conversation_id}/typing`, ana(), {});
    expect(notMine.status).toBe(404);
    expect(notMine.body.error.code).toBe("NOT_FOUND");
    const bad = await postJson(`${t.url}/v1/conversations/${DM}/typing`, dan(), { text: "secret draft" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
  });
});
