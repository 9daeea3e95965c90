import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManualClock } from "../../src/shared/clock.js";
import { DEFAULT_INSTANT } from "../support/clock.js";
import { openStream } from "../support/golden.js";
import { startTestServer, type TestServer } from "../support/server.js";

const clock = createManualClock(Date.parse(DEFAULT_INSTANT));
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(() => t.close());

describe("time-driven frames (injected clock)", () => {
  it("pushes presence.update when only time passes, and a heartbeat every 15 s", async () => {
    const s = openStream(t.url, { token: t.demo.humans[0]!.token });
    const snapshot = await s.waitFor((f) => f.event === "presence.update" && f.data.entity_id === "ent_agent_scheduler");
    expect(snapshot.data.presence.state).toBe("available");
    expect(snapshot.id).toBe(""); // presence snapshots never move the resume cursor

    await clock.advance(15_000);
    const hb = await s.waitFor((f) => f.event === "heartbeat");
    expect(hb.data.tenant_id).toBe("tnt_acme_001");

    await clock.advance(5 * 60_000);
    const off = await s.waitFor((f) => f.event === "presence.update" && f.data.entity_id === "ent_agent_scheduler" && f.data.presence.state === "offline");
    const registered = Date.parse(snapshot.data.presence.since);
    expect(Date.parse(off.data.presence.since)).toBe(registered + 5 * 60_000);

    await clock.advance(30 * 60_000);
    await s.waitFor((f) => f.event === "presence.update" && f.data.entity_id === "ent_human_dan" && f.data.presence.state === "offline");
    s.close();
  });
});
