import { safeHref } from "./safe-url.js";

/**
 * The safe document AST for rich agent replies (protocol doc "assistant.render"). The UI builds
 * DOM from these nodes only; a model never supplies HTML. Validation rebuilds the tree from an
 * allowlist: unknown node types and invalid fields are dropped (and counted), never passed on.
 * There is no image node, so nothing a model writes can make the browser fetch a remote URL.
 */
type InlineNode =
  | { type: "text"; text: string }
  | { type: "link"; href: string; children: Array<{ type: "text"; text: string }> };
type BlockNode =
  | { type: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; children: InlineNode[] }
  | { type: "paragraph"; children: InlineNode[] }
  | { type: "list"; ordered: boolean; items: ListItemNode[] }
  | { type: "blockquote"; children: BlockNode[] }
  | { type: "code_block"; language?: string; text: string }
  | { type: "table"; rows: TableRowNode[] };
type ListItemNode = { type: "list_item"; children: BlockNode[] };
type TableRowNode = { type: "table_row"; cells: TableCellNode[] };
type TableCellNode = { type: "table_cell"; header: boolean; children: InlineNode[] };
export type RenderDoc = { type: "doc"; children: BlockNode[] };

const RENDER_LIMITS = { maxDepth: 8, maxNodes: 400, maxText: 4000, maxChildren: 100 } as const;

export interface RenderValidation {
  doc: RenderDoc | null;
  /** Why nodes were dropped, in document order (capped). */
  dropped: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

export function validateRenderDoc(input: unknown): RenderValidation {
  const dropped: string[] = [];
  let nodes = 0;
  const drop = (why: string) => {
    if (dropped.length < 50) dropped.push(why);
    return null;
  };
  const budget = () => ++nodes <= RENDER_LIMITS.maxNodes;

  function text(v: unknown): string | null {
    if (typeof v !== "string") return null;
    // Controls other than tab/newline have no business in display text (bidi overrides included).
    return v
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, "")
      .slice(0, RENDER_LIMITS.maxText);
  }

  function many<T>(v: unknown, each: (x: unknown) => T | null): T[] {
    if (!Array.isArray(v)) return [];
    const out: T[] = [];
    for (const x of v.slice(0, RENDER_LIMITS.maxChildren)) {
      const r = each(x);
      if (r) out.push(r);
    }
    if (v.length > RENDER_LIMITS.maxChildren) drop("too many children");
    return out;
  }

  function inline(v: unknown): InlineNode | null {
    if (!isObj(v) || !budget()) return drop("invalid inline node");
    if (v.type === "text") {
      const t = text(v.text);
      return t === null ? drop("text without text") : { type: "text", text: t };
    }
    if (v.type === "link") {
      const href = safeHref(v.href);
      if (!href) return drop(`unsafe link ${JSON.stringify(String(v.href ?? "")).slice(0, 60)}`);
      const children = many(v.children, (c) => {
        if (!isObj(c) || c.type !== "text") return drop("link child must be text");
        const t = text(c.text);
        return t === null ? drop("text without text") : { type: "text" as const, text: t };
      });
      return { type: "link", href, children: children.length ? children : [{ type: "text", text: href }] };
    }
    return drop(`node type ${String(v.type).slice(0, 30)} not allowed inline`);
  }

  /** Runs of inline nodes directly under a list item (the compact wire form) become paragraphs. */
  function listItemChildren(v: unknown, depth: number): BlockNode[] {
    if (!Array.isArray(v)) return [];
    const out: BlockNode[] = [];
    let run: InlineNode[] = [];
    const flush = () => {
      if (run.length) out.push({ type: "paragraph", children: run });
      run = [];
    };
    for (const c of v.slice(0, RENDER_LIMITS.maxChildren)) {
      if (isObj(c) && (c.type === "text" || c.type === "link")) {
        const node = inline(c);
        if (node) run.push(node);
      } else {
        flush();
        const node = block(c, depth);
        if (node) out.push(node);
      }
    }
    flush();
    return out;
  }

  function block(v: unknown, depth: number): BlockNode | null {
    if (!isObj(v) || !budget()) return drop("invalid block node");
    if (depth > RENDER_LIMITS.maxDepth) return drop("too deep");
    switch (v.type) {
      case "heading": {
        const level = v.level;
        if (typeof level !== "number" || !Number.isInteger(level) || level < 1 || level > 6)
          return drop("heading level");
        return { type: "heading", level: level as 1, children: many(v.children, inline) };
      }
      case "paragraph":
        return { type: "paragraph", children: many(v.children, inline) };
      case "list": {
        const items = many(v.items, (it): ListItemNode | null => {
          if (!isObj(it) || it.type !== "list_item" || !budget()) return drop("list item");
          return { type: "list_item", children: listItemChildren(it.children, depth + 2) };
        });
        return { type: "list", ordered: v.ordered === true, items };
      }
      case "blockquote":
        return { type: "blockquote", children: many(v.children, (c) => block(c, depth + 1)) };
      case "code_block": {
        const t = text(v.text);
        if (t === null) return drop("code without text");
        const lang = typeof v.language === "string" && /^[a-z0-9+#-]{1,20}$/i.test(v.language) ? v.language : undefined;
        return { type: "code_block", text: t, ...(lang ? { language: lang } : {}) };
      }
      case "table": {
        const rows = many(v.rows, (r): TableRowNode | null => {
          if (!isObj(r) || r.type !== "table_row" || !budget()) return drop("table row");
          const cells = many(r.cells, (c): TableCellNode | null => {
            if (!isObj(c) || c.type !== "table_cell" || !budget()) return drop("table cell");
            // Cells hold inline nodes only, so a table cannot smuggle a nested document.
            return { type: "table_cell", header: c.header === true, children: many(c.children, inline) };
          });
          return { type: "table_row", cells };
        });
        return { type: "table", rows };
      }
      default:
        return drop(`node type ${String(v.type).slice(0, 30)} not allowed`);
    }
  }

  if (!isObj(input) || input.type !== "doc") return { doc: null, dropped: ["render is not a doc"] };
  const children = many(input.children, (c) => block(c, 1));
  if (nodes > RENDER_LIMITS.maxNodes) drop("document too large");
  return { doc: children.length ? { type: "doc", children } : null, dropped };
}
