import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, postJson, type TestServer } from "../support/server.js";
import { cardFrame, click, openStream, timelineOf } from "../support/golden.js";

let t: TestServer;
let dan: string;
beforeAll(async () => {
  t = await startTestServer();
  dan = t.demo.humans[0]!.token;
});
afterAll(() => t.close());

describe("SSE golden path (real EventSource, cookie auth)", () => {
  it("delivers three cards for one job live, and a cut connection resumes with nothing lost or duplicated", async () => {
    const s1 = openStream(t.url, { token: dan });
    const hello = await s1.waitFor((f) => f.event === "hello");
    expect(hello.data.tenant_id).toBe("tnt_acme_001");
    expect(hello.id).toMatch(/^seq:\d+$/);

    const sent = await postJson(`${t.url}/v1/conversations/cnv_9f2a/messages`, dan, {
      kind: "text",
      body_text: "Can you schedule a 30-min call with Maria next week?",
    });
    expect(sent.status).toBe(202);
    const formalize = (await s1.waitFor(cardFrame("job.formalize"))).data.item.message.card;
    const jobId = formalize.job_id;
    expect((await click(t.url, dan, formalize, "job.approve")).status).toBe(202);
    const tracking = (await s1.waitFor(cardFrame("job.tracking"))).data.item.message.card;
    expect(tracking.job_id).toBe(jobId);
    await s1.waitFor((f) => f.event === "job.update" && f.data.job.state === "waiting_input");
    await s1.waitFor(
      (f) =>
        f.event === "presence.update" &&
        f.data.entity_id === "ent_human_dan" &&
        f.data.presence.state === "waiting_on_you",
    );

    // Cut mid-job; the rest of the job happens while nobody listens.
    const resumeFrom = s1.lastId();
    s1.close();
    const before = s1.frames.filter((f) => f.event === "timeline.append").map((f) => f.data.item.event_id);
    expect((await click(t.url, dan, tracking, "job.provide_input")).status).toBe(202);

    const s2 = openStream(t.url, { token: dan, lastEventId: resumeFrom });
    const finished = (await s2.waitFor(cardFrame("job.finished"), 10_000, "finished card")).data.item.message.card;
    expect(finished.job_id).toBe(jobId);
    await s2.waitFor((f) => f.event === "job.update" && f.data.job.state === "completed");
    // let any straggling frames arrive
    await new Promise((r) => setTimeout(r, 200));
    s2.close();

    const after = s2.frames.filter((f) => f.event === "timeline.append").map((f) => f.data.item.event_id);
    const all = [...before, ...after];
    expect(new Set(all).size).toBe(all.length);
    const server = (await timelineOf(t.url, dan, "cnv_9f2a")).map((i) => i.event_id);
    expect(all).toEqual(server);
    const cards = [...s1.frames, ...s2.frames].filter(
      (f) => f.event === "timeline.append" && f.data.item.message.card?.job_id === jobId,
    );
    expect(cards.map((f) => f.data.item.message.card.card_type)).toEqual(
      expect.arrayContaining(["job.formalize", "job.tracking", "job.finished"]),
    );

    // ids only ever grow within a stream
    const ids = s2.frames.filter((f) => f.id).map((f) => Number(f.id.slice(4)));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // the artifact of the finished job was announced
    expect(s2.frames.some((f) => f.event === "artifact.added" && f.data.job_id === jobId)).toBe(true);
  });

  it("resumes from ?cursor= exactly after that cursor", async () => {
    const items = await timelineOf(t.url, dan, "cnv_9f2a");
    const mid = items[Math.floor(items.length / 2)]!;
    const s = openStream(t.url, { token: dan, query: `?cursor=${mid.cursor}` });
    await s.waitFor((f) => f.event === "timeline.append" && f.data.item.event_id === items.at(-1)!.event_id);
    s.close();
    const got = s.frames.filter((f) => f.event === "timeline.append").map((f) => f.data.item.event_id);
    expect(got).toEqual(
      items.filter((i) => Number(i.cursor.slice(4)) > Number(mid.cursor.slice(4))).map((i) => i.event_id),
    );
  });

  it("rejects malformed cursors with 400 and cursors beyond this tenant's head with 404", async () => {
    for (const bad of ["-1", "abc", "9e99", "seq:-1", "seq:01", "seq:1\r\nevent: x"]) {
      const res = await fetch(`${t.url}/v1/stream`, {
        headers: { authorization: `Bearer ${dan}`, "last-event-id": bad },
      }).catch(() => null);
      if (!res) continue; // fetch itself refuses CR/LF in a header value
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("VALIDATION_ERROR");
    }
    const far = await fetch(`${t.url}/v1/stream?cursor=seq:999999`, { headers: { authorization: `Bearer ${dan}` } });
    expect(far.status).toBe(404);
    expect((await far.json()).error.code).toBe("NOT_FOUND");
  });

  it("keeps CR, LF and NUL inside data escaped, so content cannot forge frames", async () => {
    const s = openStream(t.url, { token: dan });
    await s.waitFor((f) => f.event === "hello");
    const nasty = "line1\r\nid: seq:999999\nevent: error\ndata: {}\u0000\u2028end";
    await postJson(`${t.url}/v1/conversations/cnv_dan_ana/messages`, dan, { kind: "text", body_text: nasty });
    const f = await s.waitFor(
      (x) =>
        x.event === "timeline.append" &&
        x.data.conversation_id === "cnv_dan_ana" &&
        x.data.item.message.body_text.startsWith("line1"),
    );
    s.close();
    expect(f.data.item.message.body_text).toBe(nasty);
    expect(s.frames.some((x) => x.event === "error")).toBe(false);
    expect(s.frames.every((x) => !x.id || /^seq:\d+$/.test(x.id))).toBe(true);
  });

  it("refuses a stream without a session", async () => {
    const res = await fetch(`${t.url}/v1/stream`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("UNAUTHORIZED");
  });
});

describe("CURSOR_TOO_OLD", () => {
  it("sends an error frame with resync when the cursor fell out of the delta log", async () => {
    const small = await startTestServer({ deltaLogSize: 3 });
    try {
      const tok = small.demo.humans[0]!.token;
      for (let i = 0; i < 6; i++)
        expect(
          (
            await postJson(`${small.url}/v1/conversations/cnv_dan_ana/messages`, tok, {
              kind: "text",
              body_text: `m${i}`,
            })
          ).status,
        ).toBe(202);
      const s = openStream(small.url, { token: tok, query: "?cursor=seq:1" });
      const err = await s.waitFor((f) => f.event === "error");
      s.close();
      expect(err.data).toMatchObject({
        code: "CURSOR_TOO_OLD",
        recommended_action: "resync",
        tenant_id: "tnt_acme_001",
      });
    } finally {
      await small.close();
    }
  });
});
