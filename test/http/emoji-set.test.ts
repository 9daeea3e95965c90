import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

/**
 * The emoji picker's set, as this server serves it: every group in picker order, every emoji
 * named in the asked language, no skin-tone variants or bare components, and nothing newer than
 * the fonts people have.
 */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

type Set = { groups: Array<{ key: string; emoji: Array<[string, string, string]> }> };
const get = async (lang: string) => {
  const r = await fetch(`${t.url}/app/emoji/${lang}.json`);
  return {
    status: r.status,
    type: r.headers.get("content-type") ?? "",
    body: (r.status === 200 ? await r.json() : null) as Set | null,
  };
};

describe("the emoji picker's set", () => {
  it("names every emoji in the asked language, grouped, without skin tones or components", async () => {
    const en = await get("en");
    expect(en.status).toBe(200);
    expect(en.type).toContain("application/json");
    const groups = en.body!.groups;
    expect(groups.map((g) => g.key)).toEqual([
      "smileys-emotion",
      "people-body",
      "animals-nature",
      "food-drink",
      "travel-places",
      "activities",
      "objects",
      "symbols",
      "flags",
    ]);
    const all = groups.flatMap((g) => g.emoji);
    expect(all.length).toBeGreaterThan(1500);
    for (const [emoji, name] of all) {
      expect(emoji.length).toBeGreaterThan(0);
      expect(name.trim().length, emoji).toBeGreaterThan(0);
      // U+1F3FB–1F3FF: the skin-tone modifiers, alone or in a variant.
      expect(/[\u{1F3FB}-\u{1F3FF}]/u.test(emoji), `${emoji} ${name}`).toBe(false);
    }
    expect(all.find(([e]) => e === "🎉")?.[1]).toBe("party popper");
    // Unicode Emoji 15.1 and later are left out (🐦‍🔥 phoenix is 15.1).
    expect(all.some(([e]) => e === "🐦‍🔥")).toBe(false);

    const pt = await get("pt");
    expect(pt.body!.groups.flatMap((g) => g.emoji).find(([e]) => e === "😀")?.[1]).toBe("rosto risonho");
  });

  it("serves only the languages the Messenger speaks", async () => {
    expect((await get("xx")).status).toBe(404);
  });
});
