import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { regexPrefilter } from "../../../src/ledger/policy/regex-prefilter.js";
import { DEFAULT_PACK_PATH } from "../../../src/ledger/policy/pack.js";

/** Soundness: when the prefilter says "cannot match", the regex never matches. */
const sound = (source: string, flags: string, s: string) => {
  const f = regexPrefilter(source);
  if (f && !f(s)) expect(new RegExp(source, flags).test(s)).toBe(false);
};

const packPatterns: Array<{ source: string; flags: string }> = [];
for (const p of JSON.parse(readFileSync(DEFAULT_PACK_PATH, "utf8")).policies) {
  for (const r of p.rules)
    if (r.type === "reject_if_regex_match")
      for (const source of r.patterns) packPatterns.push({ source, flags: r.flags ?? "" });
}

const text = fc.string({
  unit: fc.constantFrom(..."aZ9 0@.-+()/:_%x\u00e9".split(""), "\ud83d\ude00", "example.com", "acme.io"),
  maxLength: 60,
});

describe("regex prefilter", () => {
  it("reads the pack's email and phone patterns (an @; a digit)", () => {
    expect(packPatterns.length).toBeGreaterThanOrEqual(2);
    for (const { source } of packPatterns) expect(regexPrefilter(source)).not.toBeNull();
  });

  it("never skips a string the pack's patterns match", () => {
    fc.assert(
      fc.property(text, (s) => {
        for (const { source, flags } of packPatterns) sound(source, flags, s);
      }),
      { numRuns: 3000 },
    );
    for (const s of ["maria@acme.com", "+44 20 7946 0958", "call 555-123-4567 now", "a@b.co"]) {
      for (const { source, flags } of packPatterns) sound(source, flags, s);
    }
  });

  it("is sound on random patterns (groups, classes, lookarounds, alternation, quantifiers)", () => {
    const atom = fc.constantFrom(
      "a",
      "@",
      "-",
      ".",
      "\\.",
      "\\-",
      "\\d",
      "\\w",
      "[a@]",
      "[^@]",
      "(a|@)",
      "(?:@)",
      "(?<!a)",
      "(?=@)",
      "(?!-)",
      "x",
      "\\+",
      ":",
      "%",
    );
    const quant = fc.constantFrom("", "", "?", "*", "+", "{2}", "{0,2}", "{1,}", "+?", "??");
    const pattern = fc
      .tuple(
        fc.array(fc.tuple(atom, quant), { minLength: 1, maxLength: 6 }),
        fc.option(fc.array(fc.tuple(atom, quant), { minLength: 1, maxLength: 3 })),
      )
      .map(([a, b]) => a.map(([x, q]) => x + q).join("") + (b ? `|${b.map(([x, q]) => x + q).join("")}` : ""));
    fc.assert(
      fc.property(pattern, fc.constantFrom("", "i"), text, (source, flags, s) => {
        try {
          new RegExp(source, flags);
        } catch {
          return; // not a pattern at all
        }
        sound(source, flags, s);
      }),
      { numRuns: 5000 },
    );
  });

  it("gives up on what it does not read", () => {
    for (const source of ["a|@", "(a@)", "@?", "@*", "@{0,1}", "[@]", "\\k<n>@", "\\u0040", "\\x40", "a{b"])
      expect(regexPrefilter(source)).toBeNull();
  });
});
