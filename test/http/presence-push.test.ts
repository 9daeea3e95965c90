import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { openStream } from "../support/golden.js";
import { getJson, startTestServer, waitFor, type TestServer } from "../support/server.js";

const clock = createManualClock(Date.parse(DEFAULT_INSTANT));
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

describe("time-driven frames (injected clock)", () => {
  it("pushes presence.update when only time passes, and a heartbeat every 15 s", async () => {
    const s = openStream(t.url, { token: t.demo.humans[0]!.token });
    const snapshot = await s.waitFor(
      (f) => f.event === "presence.update" && f.data.entity_id === "ent_agent_scheduler",
    );
    expect(snapshot.data.presence.state).toBe("available");
    expect(snapshot.id).toBe(""); // presence snapshots never move the resume cursor

    await clock.advance(15_000);
    const hb = await s.waitFor((f) => f.event === "heartbeat");
    expect(hb.data.tenant_id).toBe("tnt_acme_001");

    // Ana, with no page open and idle for 30 min, goes offline; the agent, inside the server, never does.
    await clock.advance(31 * 60_000);
    await s.waitFor(
      (f) =>
        f.event === "presence.update" && f.data.entity_id === "ent_human_ana" && f.data.presence.state === "offline",
    );
    expect(
      s.frames.some(
        (f) =>
          f.event === "presence.update" &&
          f.data.entity_id === "ent_agent_scheduler" &&
          f.data.presence.state === "offline",
      ),
    ).toBe(false);
    // Dan's page is open: he is online, then away after 10 idle minutes, not offline.
    const dan = s.frames
      .filter((f) => f.event === "presence.update" && f.data.entity_id === "ent_human_dan")
      .map((f) => f.data.presence.connection);
    expect(dan).toContain("online");
    expect(dan.at(-1)).toBe("away");
    s.close();
    const danNow = async () =>
      (await getJson(`${t.url}/v1/presence`, t.demo.humans[1]!.token)).body.items.find(
        (p: { entity_id: string }) => p.entity_id === "ent_human_dan",
      );
    await waitFor(async () => (await danNow())?.connection === "offline", 5000, "Dan offline once his page closed");
    // Last seen: when his page closed (the clock has not moved since).
    expect((await danNow()).last_seen_at).toBe(clock.iso());
  });
});
