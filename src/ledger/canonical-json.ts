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

// `String#isWellFormed` (native, ES2024) is false exactly when a string holds a lone surrogate.
const isWellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

function write(value: unknown): string {
  switch (typeof value) {
    case "string":
      if (!isWellFormed(value)) throw new TypeError("canonical JSON: string holds a lone surrogate");
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
      if (typeof (value as { toJSON?: unknown }).toJSON === "function")
        return write((value as { toJSON(): unknown }).toJSON());
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
  return `${out}]`;
}

// Object keys repeat from event to event: their JSON form is kept (bounded) instead of re-escaped.
const quotedKeys = new Map<string, string>();
function writeKey(key: string): string {
  let q = quotedKeys.get(key);
  if (q === undefined) {
    q = write(key);
    if (quotedKeys.size < 4096) quotedKeys.set(key, q);
  }
  return q;
}

/**
 * Sorts `keys` (already in order before `from`) by UTF-16 code units, the order the default
 * `Array#sort` gives strings. Envelopes have about ten keys, where an insertion sort with `<`
 * costs a fraction of the built-in sort's string comparator; long key lists use the built-in.
 */
function sortKeys(keys: string[], from: number): void {
  if (keys.length > 24) {
    keys.sort();
    return;
  }
  for (let i = from; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
}

function writeObject(obj: Record<string, unknown>): string {
  const keys = Object.keys(obj);
  // Objects often arrive with their keys in order already; sort only when they are not.
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      sortKeys(keys, i);
      break;
    }
  }
  let out = "{";
  let first = true;
  for (const key of keys) {
    const v = obj[key];
    if (v === undefined) continue;
    if (!first) out += ",";
    first = false;
    out += `${writeKey(key)}:${write(v)}`;
  }
  return `${out}}`;
}
