import { describe, expect, it } from "vitest";
import { openStream, timelineOf } from "../support/golden.js";
import { postJson, startTestServer } from "../support/server.js";

/**
 * One text per message: what a member reads live (SSE), after a reload (REST) and after a
 * restart (projections rebuilt from the ledger) is what was typed. The ledger holds only the
 * redacted form and vault pointers; a long order number is not a phone number.
 */

const T = "tnt_acme_001";
const CONV = "cnv_dan_ana";

describe("a message with an address, a phone number and an order number", () => {
  it("reads the same live, after a reload and after a restart, and the ledger keeps only what it may", async () => {
    const first = await startTestServer({ keep: true });
    let second: Awaited<ReturnType<typeof startTestServer>> | undefined;
    try {
      const dan = first.demo.humans.find((h) => h.display_name === "Dan")!.token;
      const ana = first.demo.humans.find((h) => h.display_name === "Ana")!.token;
      const typed = "Mail me at ana.silva@example.com or call +351 912 345 678 about order 4006381333931, thanks";
      const s = openStream(first.url, { token: dan });
      await s.waitFor((f) => f.event === "hello");
      const sent = await postJson(`${first.url}/v1/conversations/${CONV}/messages`, ana, {
        kind: "text",
        body_text: typed,
      });
      expect(sent.status).toBeLessThan(300);
      const frame = await s.waitFor(
        (f) => f.event === "timeline.append" && f.data.item.message.body_text?.includes("thanks"),
      );
      s.close();
      const live = frame.data.item.message.body_text;
      expect(live).toBe(typed);

      const reloaded = (await timelineOf(first.url, dan, CONV)).find((i) => i.event_id === frame.data.item.event_id);
      expect(reloaded.message.body_text).toBe(typed);

      // The ledger: no address, no phone number; the order number is kept as typed (it is not a phone).
      const raw = JSON.stringify(
        first.server.ledger.query({ tenant_id: T, conversation_id: CONV, limit: 1000 }).events,
      );
      expect(raw).not.toContain("ana.silva@example.com");
      expect(raw).not.toContain("912 345 678");
      expect(raw).toContain("order 4006381333931");
      await first.close();

      second = await startTestServer({ dataDir: first.dataDir });
      const restarted = (await timelineOf(second.url, dan, CONV)).find((i) => i.event_id === frame.data.item.event_id);
      expect(restarted.message.body_text).toBe(typed);
    } finally {
      if (second) await second.close();
    }
  }, 60_000);
});
