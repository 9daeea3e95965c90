import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { openStream } from "../support/golden.js";
import { getJson, postJson, startTestServer, type TestServer } from "../support/server.js";

/**
 * Start a call through the real server: with a Jitsi Meet server configured, a member's call is
 * one message whose room is named on that server (the meeting-room rule), live to the others and
 * the same after a restart; outsiders start nothing. Without JITSI_BASE_URL there is no button
 * to show and no room to make up: 503, nothing written.
 */
const clock = createManualClock(Date.parse(DEFAULT_INSTANT));
const JITSI = "https://meet.example.test/team";
const DM = "cnv_dan_ana";
const AGENT_CHAT = "cnv_9f2a";
let t: TestServer;
let bare: TestServer;
const token = (s: TestServer, id: string) => s.demo.humans.find((h) => h.entity_id === id)!.token;

beforeAll(async () => {
  [t, bare] = await Promise.all([
    startTestServer({ clock, keep: true, connectors: { jitsiBaseUrl: JITSI, calls: true } }),
    startTestServer({ clock }),
  ]);
});
afterAll(async () => {
  const { rmSync } = await import("node:fs");
  await Promise.all([t.close(), bare.close()]);
  rmSync(t.dataDir, { recursive: true, force: true });
});

const call = (s: TestServer, who: string, cid: string) => postJson(`${s.url}/v1/conversations/${cid}/call`, who, {});
const timeline = async (s: TestServer, who: string, cid: string) =>
  (await getJson(`${s.url}/v1/conversations/${cid}/timeline?limit=1000`, who)).body.items as any[];

describe("start a call", () => {
  it("posts a room on the configured Jitsi server as a message, live to the other member, the same after a restart", async () => {
    const dan = token(t, "ent_human_dan");
    const ana = token(t, "ent_human_ana");
    expect((await getJson(`${t.url}/v1/session`, dan)).body.calls).toBe(true);
    const stream = openStream(t.url, { token: ana });
    await stream.waitFor((f) => f.event === "hello");
    const r = await call(t, dan, DM);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.url).toMatch(/^https:\/\/meet\.example\.test\/team\/LogLine-[a-z]{4}-[a-z]{6}-[a-z]{14}$/);
    const frame = await stream.waitFor(
      (f) => f.event === "timeline.append" && f.data.item.message.message_id === r.body.message_id,
    );
    expect(frame.data.item.message).toMatchObject({ kind: "text", body_text: r.body.url, call: { url: r.body.url } });
    expect(frame.data.item.sender.display_name).toBe("Dan");
    stream.close();
    // Each call is its own room.
    const again = await call(t, ana, DM);
    expect(again.status).toBe(202);
    expect(again.body.url).not.toBe(r.body.url);
    // The ledger holds the room the message names.
    const q = await getJson(
      `${t.url}/v1/ledger/query?tenant_id=${t.demo.tenant_id}&conversation_id=${DM}&event_type=message.sent&limit=1000`,
      dan,
    );
    expect(q.body.events.find((e: any) => e.payload.message_id === r.body.message_id).payload.call).toEqual({
      url: r.body.url,
    });

    const before = await timeline(t, ana, DM);
    expect(before.find((i) => i.message.message_id === r.body.message_id)).toEqual(frame.data.item);
    await t.close();
    t = await startTestServer({
      clock,
      keep: true,
      dataDir: t.dataDir,
      connectors: { jitsiBaseUrl: JITSI, calls: true },
    });
    expect(await timeline(t, ana, DM)).toEqual(before);
  });

  it("is for members only: an outsider gets NOT_FOUND and nothing is posted", async () => {
    const ana = token(t, "ent_human_ana");
    const dan = token(t, "ent_human_dan");
    const n = (await timeline(t, dan, AGENT_CHAT)).length;
    const r = await call(t, ana, AGENT_CHAT);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("NOT_FOUND");
    expect((await timeline(t, dan, AGENT_CHAT)).length).toBe(n);
  });

  it("without JITSI_BASE_URL makes up no room: the session says so and a call is 503 with nothing written", async () => {
    const dan = token(bare, "ent_human_dan");
    expect((await getJson(`${bare.url}/v1/session`, dan)).body.calls).toBe(false);
    const n = (await timeline(bare, dan, DM)).length;
    const r = await call(bare, dan, DM);
    expect(r.status).toBe(503);
    expect(r.body.error).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: "Calls are not set up on this server: JITSI_BASE_URL is not set",
    });
    expect((await timeline(bare, dan, DM)).length).toBe(n);
  });
});
