/**
 * RFC 8785 (JSON Canonicalization Scheme). The chain hashes these bytes, so two processes (or
 * two languages) that hold the same event must produce exactly the same string:
 * - object keys sorted by UTF-16 code units (what the default `Array.prototype.sort` compares);
 * - no whitespace;
 * - strings escaped as ECMAScript's JSON.stringify does (which is what RFC 8785 specifies),
 *   lone surrogates refused because I-JSON forbids them;
 * - numbers in ECMAScript's shortest round-trip form (`Number#toString`), -0 as 0, and
 *   NaN/Infinity refused since JSON cannot carry them.
 * `undefined` object members are dropped, as JSON.stringify does, so an optional field that
 * is absent and one that is `undefined` hash the same.
 */
export function canonicalize(value: unknown): string {
  return write(value);
}

// The cheap class test runs on every string; the exact (lookaround) one only when it hits.
const ANY_SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function write(value: unknown): string {
  switch (typeof value) {
    case "string":
      if (ANY_SURROGATE.test(value) && LONE_SURROGATE.test(value)) throw new TypeError("canonical JSON: string holds a lone surrogate");
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON: ${value} is not a JSON number`);
      // Number#toString is the ES6 shortest round-trip form RFC 8785 adopts; it prints -0 as "0".
      return String(value);
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
      if (Array.isArray(value)) return writeArray(value);
      if (typeof (value as { toJSON?: unknown }).toJSON === "function") return write((value as { toJSON(): unknown }).toJSON());
      return writeObject(value as Record<string, unknown>);
    default:
      throw new TypeError(`canonical JSON: cannot serialise a ${typeof value}`);
  }
}

function writeArray(items: unknown[]): string {
  let out = "[";
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ",";
    const item = items[i];
    // JSON.stringify writes holes and undefined in arrays as null; keep the same meaning.
    out += item === undefined ? "null" : write(item);
  }
  return out + "]";
}

function writeObject(obj: Record<string, unknown>): string {
  const keys = Object.keys(obj).sort();
  let out = "{";
  let first = true;
  for (const key of keys) {
    const v = obj[key];
    if (v === undefined) continue;
    if (!first) out += ",";
    first = false;
    out += write(key) + ":" + write(v);
  }
  return out + "}";
}
