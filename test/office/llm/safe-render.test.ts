import { describe, expect, it } from "vitest";
import { safeHref } from "../../../src/office/llm/safe-url.js";
import { validateRenderDoc } from "../../../src/office/llm/render-ast.js";

describe("safe links", () => {
  it.each([
    "javascript:alert(1)",
    "JAVASCRIPT:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "\u0001javascript:alert(1)",
    " https://example.com",
    "\u0000https://example.com",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "//evil.example/x",
    "http://example.com",
    "HTTPS://example.com",
    "https://bank.example@evil.example/",
    "https:\\\\evil.example",
    "ftp://example.com",
    "/relative/path",
    "",
  ])("refuses %j", (href) => {
    expect(safeHref(href)).toBeNull();
  });
  it.each([
    ["https://example.com/a?b=c#d", "https://example.com/a?b=c#d"],
    ["mailto:maria@example.com", "mailto:maria@example.com"],
  ])("keeps %s", (href, out) => {
    expect(safeHref(href)).toBe(out);
  });
});

describe("render AST", () => {
  it("keeps allowlisted nodes and drops the rest", () => {
    const r = validateRenderDoc({
      type: "doc",
      children: [
        { type: "heading", level: 2, children: [{ type: "text", text: "Summary" }] },
        {
          type: "list",
          ordered: false,
          items: [{ type: "list_item", children: [{ type: "text", text: "inline item" }] }],
        },
        {
          type: "table",
          rows: [
            {
              type: "table_row",
              cells: [
                {
                  type: "table_cell",
                  header: true,
                  children: [
                    { type: "paragraph", children: [] },
                    { type: "text", text: "h" },
                  ],
                },
              ],
            },
          ],
        },
        { type: "code_block", language: 'js" onload="x', text: "let a = 1" },
        { type: "image", src: "https://example.com/a.png" },
        { type: "heading", level: 9, children: [] },
        { type: "script", text: "alert(1)" },
      ],
    });
    expect(r.doc?.children.map((c) => c.type)).toEqual(["heading", "list", "table", "code_block"]);
    expect(r.doc?.children[1]).toEqual({
      type: "list",
      ordered: false,
      items: [
        { type: "list_item", children: [{ type: "paragraph", children: [{ type: "text", text: "inline item" }] }] },
      ],
    });
    expect((r.doc?.children[3] as { language?: string } | undefined)?.language).toBeUndefined();
    expect(r.dropped).toEqual([
      "node type paragraph not allowed inline",
      "node type image not allowed",
      "heading level",
      "node type script not allowed",
    ]);
  });

  it("bounds depth and size, and strips bidi controls from text", () => {
    let deep: unknown = { type: "paragraph", children: [{ type: "text", text: "x" }] };
    for (let i = 0; i < 20; i++) deep = { type: "blockquote", children: [deep] };
    const r = validateRenderDoc({
      type: "doc",
      children: [deep, { type: "paragraph", children: [{ type: "text", text: "a\u202Eb" }] }],
    });
    expect(r.dropped).toContain("too deep");
    expect(JSON.stringify(r.doc)).toContain('"ab"');
    const big = validateRenderDoc({
      type: "doc",
      children: Array.from({ length: 100 }, () => ({
        type: "paragraph",
        children: Array.from({ length: 10 }, () => ({ type: "text", text: "t" })),
      })),
    });
    expect(big.dropped.some((d) => d.includes("invalid"))).toBe(true);
  });

  it("refuses a root that is not a doc", () => {
    expect(validateRenderDoc("<p>hi</p>").doc).toBeNull();
  });
});
