import htmModule from "htm";
import ts from "typescript";

/**
 * Finds words a person would read that bypass the message catalogs, in one web/ source file.
 * The JavaScript is parsed by TypeScript's compiler; each `html` template's static parts are
 * parsed by htm itself (the very parser the browser uses), with every `${…}` replaced by a marker,
 * so what htm hands to `h` as a text child or an attribute value is exactly what the page shows.
 */
type Htm = {
  bind<R>(
    h: (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => R,
  ): (strings: TemplateStringsArray, ...values: unknown[]) => R | R[];
};
// htm's types declare an ES default export over a CommonJS file; under NodeNext that default is typed as the module.
const htm = htmModule as unknown as Htm;

export type Finding = { file: string; line: number; kind: string; text: string };

/** Attributes people read (or hear), on elements and on components. */
const READ_ATTRS = new Set([
  "aria-label",
  "aria-roledescription",
  "aria-valuetext",
  "aria-placeholder",
  "title",
  "placeholder",
  "alt",
  "label",
]);
/** Component props that carry words by naming convention (okLabel, emptyText, heading…). */
const READ_PROP = /^(heading|text|body|message)$|(Label|Text|Title)$/;
/** Calls whose string arguments reach the screen or the screen reader. */
const READ_CALLS = new Set(["toast", "announce", "announceAction", "setError", "setNote", "setStatus"]);
/** Object literal keys, in an argument of confirmDialog(), that are shown in the dialog. */
const DIALOG_KEYS = new Set(["title", "body", "okLabel"]);
/**
 * Object literal keys that carry words wherever they stand: a dialog put in the store, a form
 * field's label, a button built as data (`{ label, opToken }`). A catalog key as the value is
 * fine (it goes through t() where it is shown).
 */
const SHOWN_KEYS = new Set(["label", "okLabel", "submitLabel", "cancelLabel"]);

/**
 * Strings that are not words of any language and so need no translation. Each one says why.
 */
const NOT_WORDS = new Set([
  "LogLine", // the product's name
]);

/** `${…}` number i stands in the template as one private-use character, so each can be traced back. */
const MARK = "\uE000";
const MARKS = /[\uE000-\uF8FF]/gu;
const markOf = (i: number) => String.fromCharCode(0xe001 + i);
const stripped = (s: string) => s.replace(MARKS, "");
const hasWords = (s: string) => /\p{L}/u.test(stripped(s)) && !NOT_WORDS.has(stripped(s).trim());
const clean = (s: string) => s.replace(MARKS, "…").replace(/\s+/g, " ").trim();

/** The literal text an expression can evaluate to (both sides of ?: / ?? / ||, a template's static parts). */
function literalTexts(node: ts.Expression): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node))
    return [node.head.text + node.templateSpans.map((s) => MARK + s.literal.text).join("")];
  if (ts.isParenthesizedExpression(node)) return literalTexts(node.expression);
  if (ts.isConditionalExpression(node)) return [...literalTexts(node.whenTrue), ...literalTexts(node.whenFalse)];
  if (
    ts.isBinaryExpression(node) &&
    [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.PlusToken].includes(
      node.operatorToken.kind,
    )
  )
    return [...literalTexts(node.left), ...literalTexts(node.right)];
  return [];
}

const calleeName = (e: ts.Expression) =>
  ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : "";

/** @param catalogKeys the English catalog's keys, to check every literal t("key"). */
export function scanSource(file: string, source: string, catalogKeys: ReadonlySet<string>): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: Finding[] = [];
  const add = (node: ts.Node, kind: string, text: string) =>
    found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, kind, text: clean(text) });

  const scanTemplate = (node: ts.TaggedTemplateExpression) => {
    const tpl = node.template;
    const strings = ts.isNoSubstitutionTemplateLiteral(tpl)
      ? [tpl.text]
      : [tpl.head.text, ...tpl.templateSpans.map((s) => s.literal.text)];
    const exprs = ts.isNoSubstitutionTemplateLiteral(tpl) ? [] : tpl.templateSpans.map((s) => s.expression);
    const values = exprs.map((_, i) => markOf(i));
    /** Literal words inside the `${…}` that a shown value came from (`${x ?? "Unknown"}`). */
    const fromExprs = (value: string, kind: string) => {
      for (const m of value.matchAll(MARKS)) {
        const expr = exprs[m[0].charCodeAt(0) - 0xe001];
        if (expr) for (const text of literalTexts(expr)) if (hasWords(text)) add(expr, kind, text);
      }
    };
    const h = (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => {
      const component = typeof type === "string" && /^[\uE000-\uF8FF]$/u.test(type);
      for (const [name, value] of Object.entries(props ?? {})) {
        if (typeof value !== "string") continue;
        if (!(READ_ATTRS.has(name) || (component && READ_PROP.test(name)))) continue;
        if (hasWords(value)) add(node, `attribute ${name}`, value);
        fromExprs(value, `attribute ${name}`);
      }
      for (const child of children) {
        if (typeof child !== "string") continue;
        if (hasWords(child)) add(node, "text", child);
        fromExprs(child, "text");
      }
      return null;
    };
    const parse = htm.bind(h);
    // A fresh strings array each time: htm caches its parse by the array's identity.
    const result = parse(Object.assign([...strings], { raw: strings }), ...values);
    for (const top of [result].flat()) {
      if (typeof top !== "string") continue;
      if (hasWords(top)) add(node, "text", top);
      fromExprs(top, "text");
    }
  };

  const visit = (node: ts.Node) => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === "html")
      scanTemplate(node);
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      const [first] = node.arguments;
      if (name === "t" && first) {
        if (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) {
          if (!catalogKeys.has(first.text)) add(node, "missing key", first.text);
        } else if (ts.isTemplateExpression(first)) {
          // A computed key ("job.state.${state}") must at least name an existing family of keys.
          const prefix = first.head.text;
          if (![...catalogKeys].some((k) => k.startsWith(prefix))) add(node, "missing key", `${prefix}…`);
        }
      }
      if (READ_CALLS.has(name))
        for (const arg of node.arguments)
          for (const text of literalTexts(arg)) if (hasWords(text)) add(node, `${name}()`, text);
      if (name === "confirmDialog" && first && ts.isObjectLiteralExpression(first))
        for (const p of first.properties)
          if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && DIALOG_KEYS.has(p.name.text))
            for (const text of literalTexts(p.initializer))
              if (hasWords(text)) add(p, `confirmDialog ${p.name.text}`, text);
    }
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && SHOWN_KEYS.has(node.name.text))
      for (const text of literalTexts(node.initializer))
        if (hasWords(text) && !catalogKeys.has(text)) add(node, `property ${node.name.text}`, text);
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(node.left) &&
      node.left.getText(sf) === "document.title"
    )
      for (const text of literalTexts(node.right)) if (hasWords(text)) add(node, "document.title", text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
