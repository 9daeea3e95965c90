import { describe, expect, it } from "vitest";
import { parseTokens, formatRefToken, formatOpToken, type TokenErrorCode } from "../../../src/office/llm/tokens.js";

const REF = '[ref v:1 type:"job" id:"job_maria" name:"Schedule call with Maria"]';

describe("token parser", () => {
  it("parses ref and op tokens and replaces them with placeholders", () => {
    const r = parseTokens(`Move ${REF} to Friday and [op v:1 type:"reject" job:"job_x" reason:"too late"]`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.llmText).toBe("Move [ref#1] to Friday and [op#1]");
    expect(r.tokens[0]).toMatchObject({ kind: "ref", type: "job", id: "job_maria", name: "Schedule call with Maria" });
    expect(r.tokens[1]).toMatchObject({ kind: "op", type: "reject", job: "job_x", args: { reason: "too late" } });
  });

  it("accepts escaped quotes and brackets inside quoted values, and round-trips formatted tokens", () => {
    const tok = formatRefToken("job_1", 'Call "Bob" [urgent] \\ now');
    const r = parseTokens(tok);
    expect(r.ok && r.tokens[0]).toMatchObject({ id: "job_1", name: 'Call "Bob" [urgent] \\ now' });
    const op = parseTokens(formatOpToken("follow_up", "job_2", { text: "again" }));
    expect(op.ok && op.tokens[0]).toMatchObject({
      kind: "op",
      type: "follow_up",
      job: "job_2",
      args: { text: "again" },
    });
  });

  it("leaves ordinary brackets alone and escapes typed placeholders", () => {
    const r = parseTokens("see [reference] and [options], also [ref#1]");
    expect(r.ok && r.llmText).toBe("see [reference] and [options], also (ref#1]");
    expect(r.ok && r.tokens).toEqual([]);
  });

  it("neutralises tokens in quoted lines instead of parsing them", () => {
    const r = parseTokens(`> ${REF} said someone\nok`);
    expect(r.ok && r.tokens).toEqual([]);
    expect(r.ok && r.llmText).toBe("> [quoted token] said someone\nok");
    expect(r.ok && r.quotedTokens).toBe(1);
  });

  const refused: Array<[string, string, TokenErrorCode]> = [
    ["fullwidth bracket", '［ref v:1 type:"job" id:"job_1"]', "TOKEN_LOOKALIKE_BRACKET"],
    ["mathematical bracket", '⟦ref v:1 type:"job" id:"job_1"]', "TOKEN_LOOKALIKE_BRACKET"],
    ["fullwidth letters", '[ｒｅｆ v:1 type:"job" id:"job_1"]', "TOKEN_LOOKALIKE_BRACKET"],
    ["zero-width space inside", '[ref v:1 type:"job" id:"job\u200B_1"]', "TOKEN_INVISIBLE_CHARACTERS"],
    ["zero-width joiner in the name", '[r\u200Def v:1 type:"job" id:"job_1"]', "TOKEN_INVISIBLE_CHARACTERS"],
    ["bidi override", '[ref v:1 type:"job" id:"\u202Ejob_1"]', "TOKEN_INVISIBLE_CHARACTERS"],
    ["upper case", '[REF v:1 type:"job" id:"job_1"]', "TOKEN_BAD_CASE"],
    ["v:2", '[ref v:2 type:"job" id:"job_1"]', "TOKEN_VERSION"],
    ["no version", '[ref type:"job" id:"job_1"]', "TOKEN_VERSION"],
    ["duplicate key", '[ref v:1 type:"job" id:"job_1" id:"job_2"]', "TOKEN_DUPLICATE_KEY"],
    ["unterminated quote", '[ref v:1 type:"job" id:"job_1]', "TOKEN_UNTERMINATED_QUOTE"],
    ["unterminated token", '[ref v:1 type:"job" id:"job_1"', "TOKEN_UNTERMINATED"],
    ["huge value", `[ref v:1 type:"job" id:"job_1" name:"${"x".repeat(400)}"]`, "TOKEN_TOO_LARGE"],
    [
      "huge token",
      `[ref v:1 type:"job" id:"job_1" ${Array.from({ length: 11 }, (_, i) => `k${"abcdefghijk"[i]}:"${"y".repeat(60)}"`).join(" ")}]`,
      "TOKEN_TOO_LARGE",
    ],
    ["too many tokens", Array.from({ length: 21 }, () => '[ref v:1 type:"job" id:"j"]').join(" "), "TOKEN_TOO_MANY"],
    ["unknown ref type", '[ref v:1 type:"user" id:"u_1"]', "TOKEN_UNKNOWN_TYPE"],
    ["unknown op", '[op v:1 type:"delete_everything" job:"job_1"]', "TOKEN_UNKNOWN_TYPE"],
    ["unknown op key", '[op v:1 type:"approve" job:"job_1" as:"admin"]', "TOKEN_UNKNOWN_KEY"],
    ["missing id", '[ref v:1 type:"job"]', "TOKEN_MISSING_KEY"],
    ["bad escape", '[ref v:1 type:"job" id:"a\\nb"]', "TOKEN_SYNTAX"],
    ["no space between fields", '[ref v:1 type:"job"id:"job_1"]', "TOKEN_SYNTAX"],
  ];
  it.each(refused)("refuses %s", (_name, text, code) => {
    const r = parseTokens(`please ${text} thanks`);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe(code);
      expect(r.error.message.length).toBeGreaterThan(10);
    }
  });

  it("zero-width characters in a message without tokens are not an error", () => {
    expect(parseTokens("hello\u200Bworld").ok).toBe(true);
  });
});
