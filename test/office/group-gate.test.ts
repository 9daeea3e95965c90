import { describe, expect, it } from "vitest";
import { withoutLeadingMention } from "../../src/office/intake/group-gate.js";

/** The agent's mention in front of a request is not part of the request. */
describe("withoutLeadingMention", () => {
  const name = "Office Scheduler";
  it.each([
    ["@Office Scheduler please order more paper", "please order more paper"],
    ["  @office scheduler: set up a call with Maria", "set up a call with Maria"],
    ["@Office, please order more paper", "please order more paper"],
    ["@Office — order more paper", "order more paper"],
  ])("%j → %j", (text, rest) => {
    expect(withoutLeadingMention(text, name)).toBe(rest);
  });

  it.each([
    ["please @Office order more paper"],
    ["@Officer please order more paper"],
    ["@Office Scheduler"],
    ["@Ana can you order paper?"],
  ])("%j stays as it is", (text) => {
    expect(withoutLeadingMention(text, name)).toBe(text);
  });
});
