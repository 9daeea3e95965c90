/**
 * Walks the served OpenAPI document: its operations, the string fields of their request bodies,
 * and plain sample values built from the schemas (for placing a chosen value at one field).
 */
import { afterAll, beforeAll } from "vitest";
import { startTestServer, type TestServer } from "./server.js";

export type Schema = Record<string, any>;
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}
export interface Operation {
  parameters?: Array<{ name: string; in: "path" | "query" | "header" | "cookie"; required?: boolean; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }>; headers?: Record<string, unknown> }>;
  security?: unknown[];
}

/** A step into a value: a property name, `[]` for an array's item, `|n` for branch n of anyOf/oneOf. */
export type FieldPath = string[];

function deref(doc: OpenApiDoc, s: Schema | undefined): Schema | undefined {
  let cur = s;
  for (let i = 0; cur?.$ref && i < 20; i++) cur = doc.components?.schemas?.[String(cur.$ref).split("/").pop()!];
  return cur;
}

export function operations(doc: OpenApiDoc): Array<{ method: string; path: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op })),
  );
}

export const jsonBodySchema = (op: Operation): Schema | undefined =>
  op.requestBody?.content?.["application/json"]?.schema;

const branches = (s: Schema): Schema[] | undefined => s.anyOf ?? s.oneOf;

/** Every path to a free-text string in the schema (enums, consts and formats with a fixed shape aside). */
export function stringFields(doc: OpenApiDoc, schema: Schema | undefined, at: FieldPath = [], depth = 0): FieldPath[] {
  const s = deref(doc, schema);
  if (!s || depth > 8) return [];
  const out: FieldPath[] = [];
  for (const part of s.allOf ?? []) out.push(...stringFields(doc, part, at, depth + 1));
  const alts = branches(s);
  if (alts) for (const [i, b] of alts.entries()) out.push(...stringFields(doc, b, [...at, `|${i}`], depth + 1));
  for (const [k, v] of Object.entries<Schema>(s.properties ?? {}))
    out.push(...stringFields(doc, v, [...at, k], depth + 1));
  if (s.type === "array" || s.items) out.push(...stringFields(doc, s.items, [...at, "[]"], depth + 1));
  if (s.type === "object" && s.additionalProperties && typeof s.additionalProperties === "object")
    out.push(...stringFields(doc, s.additionalProperties, [...at, "k"], depth + 1));
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes("string") && !s.enum && s.const === undefined) out.push(at);
  return out;
}

/**
 * A plain value for the schema: required and optional properties filled, the first branch of a
 * union (or the one `target` goes through), and `value` placed at `target`.
 */
export function sampleValue(
  doc: OpenApiDoc,
  schema: Schema | undefined,
  target?: { path: FieldPath; value: unknown },
  at: FieldPath = [],
  depth = 0,
): unknown {
  const s = deref(doc, schema);
  const here = target && target.path.length === at.length && target.path.every((p, i) => p === at[i]);
  if (here) return target.value;
  if (!s || depth > 8) return null;
  const onPath =
    target && target.path.length > at.length && at.every((p, i) => p === target.path[i])
      ? target.path[at.length]
      : undefined;
  const alts = branches(s);
  if (alts) {
    const i = onPath?.startsWith("|") ? Number(onPath.slice(1)) : 0;
    return sampleValue(doc, alts[i], target, [...at, `|${i}`], depth + 1);
  }
  if (s.allOf) return Object.assign({}, ...s.allOf.map((p: Schema) => sampleValue(doc, p, target, at, depth + 1)));
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  if (type === "object" || s.properties) {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries<Schema>(s.properties ?? {}))
      o[k] = sampleValue(doc, v, target, [...at, k], depth + 1);
    if (onPath === "k") o.k = sampleValue(doc, s.additionalProperties, target, [...at, "k"], depth + 1);
    return o;
  }
  if (type === "array") return [sampleValue(doc, s.items, target, [...at, "[]"], depth + 1)];
  if (type === "integer" || type === "number") return s.minimum ?? 1;
  if (type === "boolean") return true;
  if (type === "string") return "x".repeat(Math.max(1, s.minLength ?? 1));
  return null;
}

/**
 * For a file that sends something to every route: a demo server started before its tests (writes
 * not rate limited, so a held 429 hides nothing) and closed after them, the document it serves
 * and Dan's token. The fields are set once the file's tests run.
 */
export function serveEveryRoute(): { t: TestServer; doc: OpenApiDoc; dan: string } {
  const api = {} as { t: TestServer; doc: OpenApiDoc; dan: string };
  beforeAll(async () => {
    api.t = await startTestServer({ rateLimit: { capacity: 1e9, refillPerSecond: 1e9 } });
    api.doc = (await (await fetch(`${api.t.url}/v1/openapi.json`)).json()) as OpenApiDoc;
    api.dan = api.t.demo.humans[0]!.token;
  });
  afterAll(() => api.t?.close());
  return api;
}
