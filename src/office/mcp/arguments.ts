import { Ajv, type ValidateFunction } from "ajv";

/**
 * A tool's arguments, from what a person typed to what the ledger keeps. `/run <tool> {json}` or
 * `/run <tool> key=value …` (values coerced to the types the tool's input schema declares) are
 * read, checked against that JSON Schema (Ajv) before any card is shown, and shortened for the
 * ledger: every string scrubbed of addresses and numbers and cut to a preview. The exact
 * arguments go to the vault; the tool gets them only when it runs.
 */

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const compiled = new WeakMap<object, ValidateFunction>();

type Schema = Record<string, unknown>;

/** `/run <tool> <arguments>` → its parts; null when the text is not a /run command. */
export function parseRunCommand(text: string): { tool: string; rest: string } | null {
  const m = /^\/run(?:\s+(\S+))?\s*([\s\S]*)$/.exec(text.trim());
  if (!m) return null;
  return { tool: m[1] ?? "", rest: (m[2] ?? "").trim() };
}

const propsOf = (schema: Schema) =>
  schema.properties && typeof schema.properties === "object" ? (schema.properties as Record<string, Schema>) : {};

function coerce(value: string, prop: Schema | undefined): unknown {
  const type = Array.isArray(prop?.type) ? (prop.type as string[])[0] : (prop?.type as string | undefined);
  if (type === "number" || type === "integer") {
    // Not a number stays text, so the schema check says what is wrong.
    const n = Number(value);
    return value.trim() === "" || !Number.isFinite(n) ? value : n;
  }
  if (type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  if (type === "array" || type === "object") {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/** key=value tokens; a value may be "double-quoted" (with \" and \\ escapes) or 'single-quoted'. */
function tokens(rest: string): Array<[string, string]> | string {
  const out: Array<[string, string]> = [];
  const re = /\s*([A-Za-z_][\w.-]*)=(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S*))/y;
  let at = 0;
  while (at < rest.length) {
    if (/^\s+$/.test(rest.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(rest);
    if (!m) return `Could not read “${rest.slice(at).trim().slice(0, 60)}”: write key=value pairs or one JSON object.`;
    const value = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : (m[3] ?? m[4] ?? "");
    out.push([m[1]!, value]);
    at = re.lastIndex;
  }
  return out;
}

/** What the person typed after the tool's name, as the tool's arguments, or why it cannot be read. */
export function readArguments(
  rest: string,
  schema: Schema,
): { ok: true; args: Record<string, unknown> } | { ok: false; message: string } {
  if (!rest) return { ok: true, args: {} };
  if (rest.startsWith("{")) {
    try {
      const v = JSON.parse(rest) as unknown;
      if (v && typeof v === "object" && !Array.isArray(v)) return { ok: true, args: v as Record<string, unknown> };
    } catch (err) {
      return { ok: false, message: `The arguments are not valid JSON: ${(err as Error).message}` };
    }
    return { ok: false, message: "The arguments must be one JSON object." };
  }
  const pairs = tokens(rest);
  if (typeof pairs === "string") return { ok: false, message: pairs };
  const props = propsOf(schema);
  return { ok: true, args: Object.fromEntries(pairs.map(([k, v]) => [k, coerce(v, props[k])])) };
}

/** What is wrong with `args` for the tool's input schema, in short lines; empty when they fit. */
export function checkArguments(schema: Schema, args: Record<string, unknown>): string[] {
  let validate = compiled.get(schema);
  if (!validate) {
    const { $schema: _ignored, ...rest } = schema;
    try {
      validate = ajv.compile(rest);
    } catch (err) {
      return [`The tool's input schema cannot be read: ${(err as Error).message}`.slice(0, 300)];
    }
    compiled.set(schema, validate);
  }
  if (validate(args)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => {
    const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, ".") : "";
    if (e.keyword === "required") return `${(e.params as { missingProperty: string }).missingProperty} is required`;
    if (e.keyword === "additionalProperties")
      return `${(e.params as { additionalProperty: string }).additionalProperty} is not an argument of this tool`;
    return `${where || "arguments"} ${e.message ?? "is not valid"}`;
  });
}

/** The arguments' fields for a form or a help line: name, type, required, description. */
export function argumentFields(
  schema: Schema,
): Array<{ key: string; type: string; required: boolean; description?: string }> {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(propsOf(schema)).map(([key, p]) => ({
    key,
    type: Array.isArray(p.type) ? (p.type as string[]).join("|") : String(p.type ?? "any"),
    required: required.has(key),
    ...(typeof p.description === "string" ? { description: p.description.slice(0, 200) } : {}),
  }));
}

const PREVIEW = 200;

/** The arguments as the ledger keeps them: strings scrubbed and cut to a preview, depth and size bounded. */
export function ledgerArguments(args: Record<string, unknown>, scrub: (s: string) => string): Record<string, unknown> {
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") {
      const clean = scrub(v);
      return clean.length > PREVIEW ? `${clean.slice(0, PREVIEW)}… (${v.length} characters)` : clean;
    }
    if (typeof v === "number" || typeof v === "boolean" || v === null) return v;
    if (depth >= 4) return "…";
    if (Array.isArray(v))
      return [...v.slice(0, 20).map((x) => walk(x, depth + 1)), ...(v.length > 20 ? [`… (${v.length} items)`] : [])];
    if (typeof v === "object")
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>)
          .slice(0, 30)
          .map(([k, x]) => [k.slice(0, 64), walk(x, depth + 1)]),
      );
    return String(v);
  };
  return walk(args, 0) as Record<string, unknown>;
}
