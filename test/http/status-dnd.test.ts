import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * A custom status with an end, and do not disturb, over real HTTP: both are profile events
 * everyone sees (entity.update, the directory), kept over a restart; while do not disturb lasts,
 * nothing notifies the person; the time must lie ahead.
 */
const clock = createManualClock(Date.parse("2026-03-02T09:00:00.000Z"));
let t: TestServer;
const DM = "cnv_dan_ana";
const dan = () => t.demo.humans[0]!.token;
const ana = () => t.demo.humans[1]!.token;
const ANA = "ent_human_ana";

async function put(token: string, body: unknown) {
  const res = await fetch(`${t.url}/v1/me/profile`, {
    method: "PUT",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "idempotency-key": `k-${Math.random().toString(36).slice(2)}`,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const say = (text: string) =>
  postJson(`${t.url}/v1/conversations/${DM}/messages`, dan(), { kind: "text", body_text: text });
const anaInDirectory = async () =>
  (await getJson(`${t.url}/v1/entities`, dan())).body.items.find((e: { entity_id: string }) => e.entity_id === ANA);

beforeAll(async () => {
  t = await startTestServer({ clock, keep: true });
});
afterAll(async () => {
  await t?.close();
  if (t) rmSync(t.dataDir, { recursive: true, force: true });
});

describe("status and do not disturb", () => {
  it("a status with an end is seen by everyone, live and in the directory", async () => {
    const d = openStream(t.url, { token: dan() });
    await d.waitFor((f) => f.event === "hello");
    const r = await put(ana(), { status: { text: "At the dentist", until: "2026-03-02T10:00:00.000Z" } });
    expect(r.status).toBe(200);
    const f = await d.waitFor(
      (x) =>
        x.event === "entity.update" &&
        x.data.entity.entity_id === ANA &&
        x.data.entity.status_text === "At the dentist",
    );
    expect(f.data.entity.status_until).toBe("2026-03-02T10:00:00.000Z");
    expect(await anaInDirectory()).toMatchObject({
      status_text: "At the dentist",
      status_until: "2026-03-02T10:00:00.000Z",
    });
    d.close();
  });

  it("refuses a time already past, and an admin setting someone else's, in the standard shape", async () => {
    const past = await put(ana(), { dnd_until: "2026-03-02T08:00:00.000Z" });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: { field: "dnd_until" } });
    const other = await fetch(`${t.url}/v1/entities/${ANA}/profile`, {
      method: "PUT",
      headers: {
        authorization: `Bearer ${dan()}`,
        "content-type": "application/json",
        "idempotency-key": `k-${Math.random()}`,
      },
      body: JSON.stringify({ dnd_until: "2026-03-02T12:00:00.000Z" }),
    });
    expect(other.status).toBe(403);
  });

  it("while do not disturb lasts, a direct message notifies no one; after it ends, it does again", async () => {
    expect((await put(ana(), { dnd_until: "2026-03-02T11:00:00.000Z" })).status).toBe(200);
    const a = openStream(t.url, { token: ana() });
    await a.waitFor((f) => f.event === "hello");
    await say("during dnd");
    await a.waitFor((f) => f.event === "timeline.append" && f.data.item.message.body_text === "during dnd");
    await new Promise((r) => setTimeout(r, 200));
    expect(a.frames.filter((f) => f.event === "notification")).toHaveLength(0);

    // Its time runs out by itself.
    await clock.advance(2 * 3_600_000 + 1000);
    await say("after dnd");
    const n = await a.waitFor((f) => f.event === "notification");
    expect(n.data.notification.body).toContain("after dnd");
    a.close();
  });

  it("keeps the status over a restart", async () => {
    // Presence aside: which pages are open is not kept over a restart.
    const { presence: _p, ...before } = await anaInDirectory();
    await t.close();
    t = await startTestServer({ clock, keep: true, dataDir: t.dataDir });
    const { presence: _q, ...after } = await anaInDirectory();
    expect(after).toEqual(before);
    expect(before.dnd_until).toBe("2026-03-02T11:00:00.000Z");
  });
});
