import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../contracts/events.js";
import { CARD_ACTION_TYPES } from "../../contracts/cards.js";
import { JSON_SCHEMA_DIR, buildJsonSchemas } from "../../contracts/export-json-schema.js";

describe("contracts/json-schema (npm run schemas)", () => {
  const fresh = buildJsonSchemas();

  it("the committed files equal a fresh export", () => {
    const committed = readdirSync(JSON_SCHEMA_DIR)
      .filter((f) => f.endsWith(".json"))
      .sort();
    expect(committed).toEqual(Object.keys(fresh).sort());
    for (const [file, text] of Object.entries(fresh)) {
      expect(readFileSync(JSON_SCHEMA_DIR + file, "utf8"), `${file} is stale: run npm run schemas`).toBe(text);
    }
  });

  it("the envelope schema covers every event type and the card schema every card and action", () => {
    const event = fresh["ubl-event.schema.json"]!;
    for (const t of EVENT_TYPES) expect(event).toContain(`"const": "${t}"`);
    const card = fresh["job-card.schema.json"]!;
    for (const t of ["job.formalize", "job.tracking", "job.finished"]) expect(card).toContain(`"const": "${t}"`);
    const action = fresh["card-action.schema.json"]!;
    for (const t of CARD_ACTION_TYPES) expect(action).toContain(`"const": "${t}"`);
    for (const text of Object.values(fresh))
      expect(JSON.parse(text).$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });
});
