import { describe, expect, it } from "vitest";
import { at } from "./helpers.js";

/**
 * The PII scan runs on the single-writer append path, so it must stay linear on hostile input:
 * the seed's email pattern takes tens of seconds on a 100 KB run of address characters.
 */
const N = 100_000;
const HOSTILE: Record<string, string> = {
  "a long digit run": "9".repeat(2 * N),
  "a long run of address characters": "1-2-3-4-5-6-7x".repeat(N / 14),
  "a huge local part and domain without a dot": `${"a".repeat(N)}@${"b".repeat(N)}`,
  "a domain of one-letter labels": `a@${"b.".repeat(N / 2)}`,
  "a domain of dashes": `a@${"b-".repeat(N / 2)}`,
  "many @ signs": "a@".repeat(N / 2),
  "dots before an @": `${".".repeat(N)}@x.co`,
  "a digit then spaces": `1${" ".repeat(2 * N)}`,
  "digits with separator runs": "1 ( - ) ".repeat(N / 8),
  "many dates": "2025-12-27 ".repeat(N / 11),
  "reserved-domain lookalikes": "x@example.".repeat(N / 10),
};

describe("the PII scan is linear on hostile input", () => {
  for (const [name, text] of Object.entries(HOSTILE)) {
    it(`scans ${name} quickly`, () => {
      const { engine, fold, event } = at("evt_0020");
      event.payload.inputs.notes_hint = text;
      const t = performance.now();
      engine.check(fold, event);
      expect(performance.now() - t).toBeLessThan(1500);
    });
  }

  it("still finds what it should in long text", () => {
    const { engine, fold, event } = at("evt_0020");
    event.payload.inputs.notes_hint = `${"lorem ipsum ".repeat(5000)} write to maria.lopez+cal@acme.co.uk ${"dolor ".repeat(5000)}`;
    expect(engine.check(fold, event)).toMatchObject({ ok: false, violation: { code: "RAW_PII_DETECTED" } });
    event.payload.inputs.notes_hint = `${"lorem ipsum ".repeat(5000)} call +44 20 7946 0958 ${"dolor ".repeat(5000)}`;
    expect(engine.check(fold, event)).toMatchObject({
      ok: false,
      violation: { code: "RAW_PII_DETECTED", message_safe: "Raw phone number detected in payload.inputs.notes_hint" },
    });
  });
});
