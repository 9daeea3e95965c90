// @ts-check
import { t } from "./i18n.js";
// The /run form: a tool's JSON Schema turned into the fields of the input modal (the same one
// Provide info uses), and the filled fields turned back into the tool's arguments.
import { ApiError } from "./api.js";

/** @typedef {import('./types.js').InputField} InputField */
/** @typedef {{ type?: string | string[], description?: string, enum?: unknown[], maxLength?: number, default?: unknown }} Prop */

const LONG_TEXT = /^(content|text|body|message|note|notes|description|query)$/i;
const STRUCTURED = new Set(["array", "object"]);

/** @param {Prop} p */
const typeOf = (p) => (Array.isArray(p.type) ? p.type.find((x) => x !== "null") : p.type) ?? "string";

/**
 * The input modal's fields for a tool's input schema: text, numbers, yes/no, a choice for an
 * enum, and JSON text for lists and objects.
 * @param {Record<string, unknown>} schema @returns {InputField[]}
 */
export function fieldsFor(schema) {
  const props = /** @type {Record<string, Prop>} */ (
    schema.properties && typeof schema.properties === "object" ? schema.properties : {}
  );
  const required = new Set(Array.isArray(schema.required) ? /** @type {string[]} */ (schema.required) : []);
  return Object.entries(props)
    .slice(0, 30)
    .map(([key, p]) => {
      const type = typeOf(p);
      /** @type {InputField} */
      const f = { key, label: key.replace(/_/g, " "), type: "string", required: required.has(key) };
      if (Array.isArray(p.enum) && p.enum.length && p.enum.length <= 50) {
        f.type = "select";
        f.options = p.enum.map((v) => ({ value: String(v), label: String(v) }));
      } else if (type === "number" || type === "integer") f.type = "number";
      else if (type === "boolean") f.type = "boolean";
      else if (STRUCTURED.has(type) || LONG_TEXT.test(key) || (p.maxLength ?? 0) > 200) f.type = "multiline";
      const hint = [
        STRUCTURED.has(type) ? `JSON ${type === "array" ? 'list, e.g. ["a", "b"]' : "object"}` : "",
        p.description ?? "",
      ]
        .filter(Boolean)
        .join(" — ");
      if (hint) f.hint = hint.slice(0, 200);
      return f;
    });
}

/**
 * The filled fields as the tool's arguments; JSON fields are parsed, and a bad one is reported
 * on its field like a server's field error.
 * @param {Record<string, unknown>} schema @param {Record<string, string|number|boolean>} values
 */
export function argumentsFrom(schema, values) {
  const props = /** @type {Record<string, Prop>} */ (schema.properties ?? {});
  /** @type {Record<string, unknown>} */
  const out = {};
  /** @type {Record<string, string>} */
  const errors = {};
  for (const [key, v] of Object.entries(values)) {
    const p = props[key] ?? {};
    const type = typeOf(p);
    if (STRUCTURED.has(type) && typeof v === "string") {
      try {
        out[key] = JSON.parse(v);
      } catch {
        errors[key] = t("form.json", { type: type === "array" ? "array" : "object" });
      }
    } else if (type === "integer" && typeof v === "number" && !Number.isInteger(v))
      errors[key] = t("form.whole_number");
    else out[key] = Array.isArray(p.enum) && typeof v === "string" ? (p.enum.find((e) => String(e) === v) ?? v) : v;
  }
  if (Object.keys(errors).length)
    throw new ApiError(400, "VALIDATION_ERROR", "Please fix the highlighted fields.", { fields: errors });
  return out;
}
