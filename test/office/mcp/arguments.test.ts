import { describe, expect, it } from "vitest";
import {
  argumentFields,
  checkArguments,
  ledgerArguments,
  parseRunCommand,
  readArguments,
} from "../../../src/office/mcp/arguments.js";

const SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    path: { type: "string", description: "Where" },
    head: { type: "number" },
    dry: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["path"],
  additionalProperties: false,
};

describe("tool arguments", () => {
  it("reads /run as a tool and the rest", () => {
    expect(parseRunCommand("/run files.write_file path=x")).toEqual({ tool: "files.write_file", rest: "path=x" });
    expect(parseRunCommand("/run")).toEqual({ tool: "", rest: "" });
    expect(parseRunCommand("run files")).toBeNull();
  });

  it("reads key=value pairs with quotes and coerces them to the schema's types", () => {
    expect(readArguments(`path="a b \\"c\\"" head=3 dry=true tags=["x","y"] note='it is'`, SCHEMA)).toMatchObject({
      ok: true,
      args: { path: 'a b "c"', head: 3, dry: true, tags: ["x", "y"] },
    });
    expect(readArguments("head=many path=x", SCHEMA)).toEqual({ ok: true, args: { head: "many", path: "x" } });
    expect(readArguments('{"path": "x", "head": 2}', SCHEMA)).toEqual({ ok: true, args: { path: "x", head: 2 } });
    expect(readArguments("[1,2]", SCHEMA)).toMatchObject({ ok: false });
    expect(readArguments("{broken", SCHEMA)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not valid JSON/),
    });
    expect(readArguments("just words", SCHEMA)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/key=value/),
    });
  });

  it("checks arguments against the tool's JSON Schema (2020-12 included) and says what is wrong", () => {
    expect(checkArguments(SCHEMA, { path: "x", head: 2 })).toEqual([]);
    expect(checkArguments(SCHEMA, { head: "many" })).toEqual(
      expect.arrayContaining(["path is required", "head must be number"]),
    );
    expect(checkArguments(SCHEMA, { path: "x", color: "blue" })).toEqual(["color is not an argument of this tool"]);
    expect(argumentFields(SCHEMA)).toEqual([
      { key: "path", type: "string", required: true, description: "Where" },
      { key: "head", type: "number", required: false },
      { key: "dry", type: "boolean", required: false },
      { key: "tags", type: "array", required: false },
    ]);
  });

  it("keeps in the ledger only scrubbed previews, bounded in size and depth", () => {
    const scrub = (s: string) => s.replace(/[\w.]+@[\w.]+/g, "m***@example.org");
    const out = ledgerArguments(
      {
        to: "maria@example.org",
        content: "x".repeat(500),
        deep: { a: { b: { c: { d: { e: 1 } } } } },
        list: Array.from({ length: 25 }, (_, i) => i),
      },
      scrub,
    );
    expect(out.to).toBe("m***@example.org");
    expect(out.content).toBe(`${"x".repeat(200)}… (500 characters)`);
    expect(JSON.stringify(out.deep)).toContain("…");
    expect((out.list as unknown[]).length).toBe(21);
  });
});
