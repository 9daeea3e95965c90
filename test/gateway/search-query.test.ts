import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toFtsQuery } from "../../src/gateway/search/fts-query.js";
import { cleanForIndex, parseSnippet } from "../../src/gateway/search/snippet.js";
import { AppError } from "../../src/shared/errors.js";

/** A real FTS5 table with the index's tokenizer: whatever a person types is either refused or a valid query. */
const db = new Database(":memory:");
db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 2')");
db.prepare("INSERT INTO t(body) VALUES (?)").run("The quarterly budget review — café NEAR the harbour");
const run = (match: string) => db.prepare("SELECT count(*) FROM t WHERE t MATCH ?").pluck().get(match) as number;

describe("toFtsQuery", () => {
  it("never produces an FTS5 syntax error, for any text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120, unit: "grapheme" }), (q) => {
        let match: string;
        try {
          match = toFtsQuery(q).match;
        } catch (e) {
          expect(e).toBeInstanceOf(AppError);
          expect((e as AppError).code).toBe("VALIDATION_ERROR");
          return;
        }
        expect(() => run(match)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it("quotes each word, makes the last a prefix, and treats operators as words", () => {
    expect(toFtsQuery('budget "review').match).toBe('"budget" "review"*');
    expect(run(toFtsQuery("quart").match)).toBe(1);
    expect(run(toFtsQuery("quart budget").match)).toBe(0);
    expect(run(toFtsQuery("NEAR(").match)).toBe(1);
    expect(run(toFtsQuery("CAFE").match)).toBe(1);
    expect(run(toFtsQuery("budget OR nothing").match)).toBe(0);
  });

  it("refuses what has no words, is too long, or has too many words", () => {
    for (const q of [
      "",
      "   ",
      '"',
      "*:^()",
      "a".repeat(201),
      Array.from({ length: 17 }, (_, i) => `w${i}`).join(" "),
    ]) {
      expect(() => toFtsQuery(q), q).toThrow(AppError);
    }
  });
});

describe("snippets", () => {
  it("turns the marks into offsets and never keeps a control character", () => {
    expect(parseSnippet("the \u0002budget\u0003 and \u0002review\u0003…")).toEqual({
      text: "the budget and review…",
      highlights: [
        [4, 10],
        [15, 21],
      ],
    });
    expect(cleanForIndex("a\u0002b\u0003c\u0000d\te\nf")).toBe("a b c d\te\nf");
  });
});
