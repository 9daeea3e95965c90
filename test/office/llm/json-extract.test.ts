import { describe, expect, it } from "vitest";
import { extractJsonObject } from "../../../src/office/llm/json-extract.js";

describe("JSON extraction from model text", () => {
  it.each([
    ["plain", '{"a":1}'],
    ["code fence with language", '```json\n{"a":1}\n```'],
    ["bare code fence", '```\n{"a":1}\n```'],
    ["leading think block", '<think>hmm {"a":2}</think>\n{"a":1}'],
    ["leading prose", 'Here you go: {"a":1}'],
    ["braces inside strings", '{"a":1,"s":"} { ]"}'],
  ])("accepts %s", (_n, text) => {
    const r = extractJsonObject(text);
    expect(r.ok && r.value.a).toBe(1);
  });

  it.each([
    ["truncated", '{"a":1,"b":[1,2'],
    ["unclosed think", '<think>never ends {"a":1}'],
    ["think after the object", '{"a":1}</think>'],
    ["two objects", '{"a":1}\n{"a":2}'],
    ["unclosed fence", '```json\n{"a":1}'],
    ["array at top", "[1,2]"],
    ["no JSON", "Sorry, I cannot do that."],
    ["invalid JSON", "{a:1}"],
    ["mismatched brackets", '{"a":[1}'],
    ["huge", `{"a":"${"x".repeat(200_001)}"}`],
  ])("refuses %s", (_n, text) => {
    expect(extractJsonObject(text).ok).toBe(false);
  });
});
