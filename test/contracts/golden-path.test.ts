import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ZFinishedCard, ZFormalizeCard, ZJobCard, ZTrackingCard } from "../../contracts/cards.js";
import { ZUblEvent } from "../../contracts/events.js";

const DIR = fileURLToPath(new URL("../../fixtures/golden-path/", import.meta.url));
const files = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort();

describe("fixtures/golden-path parse with the contracts", () => {
  it("has the happy path and the three failure scenarios", () => {
    expect(files).toEqual([
      "failure-auth-required.json",
      "failure-retries-exhausted.json",
      "failure-retryable.json",
      "happy-path.json",
    ]);
  });

  for (const file of files) {
    const text = readFileSync(DIR + file, "utf8");
    const doc = JSON.parse(text) as { scenario: string; tenant_id: string; events: unknown[] };

    it(`${file}: every event is a valid UBL event of the scenario's tenant, ids unique`, () => {
      expect(doc.events.length).toBeGreaterThan(10);
      const ids = new Set<string>();
      for (const raw of doc.events) {
        const r = ZUblEvent.safeParse(raw);
        expect(
          r.success ? null : { event: (raw as { event_id?: string }).event_id, issues: r.error.issues },
        ).toBeNull();
        if (!r.success) continue;
        expect(r.data.tenant_id).toBe(doc.tenant_id);
        expect(ids.has(r.data.event_id)).toBe(false);
        ids.add(r.data.event_id);
      }
    });

    it(`${file}: every card is written out in full (no $ref) and parses as its card type`, () => {
      expect(text).not.toContain("$ref");
      for (const raw of doc.events as Array<Record<string, any>>) {
        const p = raw.payload;
        if (raw.event_type === "job.proposed") ZFormalizeCard.parse(p.proposed_card);
        if (raw.event_type === "job.progress") ZTrackingCard.parse(p.tracking_card);
        if (raw.event_type === "job.completed") ZFinishedCard.parse(p.finished_card);
        if (raw.event_type === "message.sent" && p.kind === "card") ZJobCard.parse(p.card);
      }
    });

    it(`${file}: carries no raw email address outside documentation domains`, () => {
      const emails = text.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g) ?? [];
      expect(emails.filter((e) => !/@example\.com$/.test(e))).toEqual([]);
    });
  }

  it("the card messages show exactly the cards their job events embed", () => {
    const doc = JSON.parse(readFileSync(`${DIR}happy-path.json`, "utf8")) as { events: Array<Record<string, any>> };
    const byId = new Map(doc.events.map((e) => [e.event_id, e]));
    expect(byId.get("evt_0004")!.payload.card).toEqual(byId.get("evt_0003")!.payload.proposed_card);
    expect(byId.get("evt_0009")!.payload.card).toEqual(byId.get("evt_0008")!.payload.tracking_card);
    expect(byId.get("evt_0013")!.payload.card).toEqual(byId.get("evt_0012")!.payload.finished_card);
  });
});
