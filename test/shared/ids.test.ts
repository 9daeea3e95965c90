import { describe, expect, it } from "vitest";
import { newId } from "../../src/shared/ids.js";

describe("newId", () => {
  it("is prefixed, UUIDv7-shaped hex and time-ordered", () => {
    const a = newId("evt", 1_700_000_000_000);
    expect(a).toMatch(/^evt_[0-9a-f]{12}7[0-9a-f]{3}[0-9a-f]{16}$/);
    const b = newId("evt", 1_700_000_000_000);
    expect(b > a).toBe(true);
  });

  it("draws fresh randomness for every id, across refills of the random block", () => {
    // 4 KiB blocks hold 512 ids' worth: 5,000 ids cross several refills.
    const tails = new Set<string>();
    for (let i = 0; i < 5000; i++) tails.add(newId("x").slice(-16));
    expect(tails.size).toBe(5000);
  });
});
