/**
 * What counts as PII in free text and how it is shown once redacted. Redacted forms are built
 * so they can never match the patterns again (the local part keeps one letter and stars), which
 * is what lets the ledger's no_raw_pii policy stay a plain regex scan.
 */

export const EMAIL_RE = /[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/gi;

/**
 * Phones are found in two passes, both anchored at the edges of a run:
 *  - spaced: digits with spaces, dashes or parens between them (at most 4 in a row), the shape
 *    of the ledger's no_raw_pii pattern, so everything that policy would refuse is found here
 *    first and vaulted instead of failing the append;
 *  - dotted: `212.555.0123`, groups of 2–4 digits (not IP addresses or dd.mm.yyyy dates).
 * The lookbehind is what keeps ids out: a digit run inside `job_0193a1…78107000…` or a hex hash
 * follows a letter, digit or `_`, and a run right after `-`, `.`, `/` or `+` belongs to a
 * longer token (a UUID, a decimal, a path). The lookahead refuses a run that goes on into
 * letters. The bounded repetition keeps every scan linear.
 */
const EDGE_BEFORE = String.raw`(?<![\w/.+-])(?<!\d:)`;
const EDGE_AFTER = String.raw`(?![\w-])`;
const ISO_DATE_AHEAD = String.raw`(?!\d{4}-\d{2}-\d{2}(?!\d))`;
const MAX_DIGITS = 15;

function spacedPhone(minDigits: number): RegExp {
  return new RegExp(
    `${EDGE_BEFORE}${ISO_DATE_AHEAD}\\+?(?:\\((?=\\d{1,5}\\)))?\\d(?:[ \\t()-]{0,4}\\d){${minDigits - 1},${MAX_DIGITS - 1}}${EDGE_AFTER}`,
    "g",
  );
}
const DOTTED_PHONE = new RegExp(`${EDGE_BEFORE}\\+?\\d{1,4}(?:\\.\\d{2,4}){2,4}(?![\\w-]|\\.\\d)`, "g");
const NOT_DOTTED_PHONE = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\d{1,2}\.\d{1,2}\.\d{2,4})$/;
const SPACED = new Map<number, RegExp>();

/**
 * Values that look numeric but are never a phone: ISO timestamps (with `T` or a space before
 * the time) and pointers (`vault_ref:…`, `blake3:…`). They are blanked before the scan.
 */
const ISO_TS_RE = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g;
const POINTER_RE = /\b(?:vault_ref|blake3):[^\s"'`,;()<>]+/g;

const blank = (s: string) => " ".repeat(s.length);

/**
 * No national numbering plan has 13 or more digits: such a run written without a `+` or the
 * `00` international prefix and without separators is an order, account or product number
 * (an EAN-13 barcode), not a phone. The ledger's no_raw_pii pattern makes the same exception.
 */
const LONG_PLAIN_NUMBER = /^(?!00)\d{13,15}$/;
const isLongPlainNumber = (run: string) => LONG_PLAIN_NUMBER.test(run);

export interface PhoneMatch {
  value: string;
  start: number;
  end: number;
}

/** Phone numbers in a text with their positions, in order; `minDigits` between 7 and 15. */
export function findPhones(text: string, minDigits = 7): PhoneMatch[] {
  if (!/\d/.test(text)) return [];
  const masked = text.replace(ISO_TS_RE, blank).replace(POINTER_RE, blank);
  let spaced = SPACED.get(minDigits);
  if (!spaced) SPACED.set(minDigits, (spaced = spacedPhone(minDigits)));
  const out: PhoneMatch[] = [];
  for (const m of masked.matchAll(spaced))
    if (!isLongPlainNumber(m[0])) out.push({ value: m[0], start: m.index, end: m.index + m[0].length });
  if (masked.includes(".")) {
    for (const m of masked.matchAll(DOTTED_PHONE)) {
      const n = digitsOf(m[0]).length;
      if (n < minDigits || n > MAX_DIGITS || NOT_DOTTED_PHONE.test(m[0])) continue;
      if (out.some((f) => m.index < f.end && m.index + m[0].length > f.start)) continue;
      out.push({ value: m[0], start: m.index, end: m.index + m[0].length });
    }
    out.sort((a, b) => a.start - b.start);
  }
  return out;
}

export function isEmail(value: string): boolean {
  return /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i.test(value.trim());
}

export function digitsOf(value: string): string {
  return value.replace(/\D/g, "");
}

/** A whole value (a form field) that is a phone number. */
export function isPhone(value: string): boolean {
  const v = value.trim();
  const found = findPhones(v);
  return found.length === 1 && found[0]!.start === 0 && found[0]!.end === v.length;
}

/** `maria@acme.com` → `m***@acme.com` */
export function redactEmail(email: string): string {
  const [local = "", domain = ""] = email.trim().split("@");
  return `${local.slice(0, 1) || "*"}***@${domain.toLowerCase()}`;
}

/** `+351 912 345 678` → `***-***-678` (last three digits only, never a matchable run). */
export function redactPhone(phone: string): string {
  return `***-***-${digitsOf(phone).slice(-3)}`;
}

export interface PiiMatch {
  kind: "email" | "phone";
  value: string;
  start: number;
  end: number;
}

/** Every email and phone found in a text, in order of appearance, with positions. */
export function findPii(text: string): PiiMatch[] {
  const found: PiiMatch[] = [];
  // Without an @ there is no address, and the unanchored email pattern is costly on long runs.
  if (text.includes("@"))
    for (const m of text.matchAll(EMAIL_RE))
      found.push({ kind: "email", value: m[0], start: m.index, end: m.index + m[0].length });
  const noEmails = found.length ? text.replace(EMAIL_RE, blank) : text;
  for (const p of findPhones(noEmails)) found.push({ kind: "phone", ...p });
  return found.sort((a, b) => a.start - b.start);
}

/** Hashes and vault pointers are pointers, not data (as in the ledger's no_raw_pii policy). */
const POINTER = /^(blake3:|vault_ref:)/;

/** Every raw email or phone in the string values (and keys) of a JSON-able value. */
export function findPiiDeep(value: unknown): Array<{ kind: "email" | "phone"; value: string; path: string }> {
  const out: Array<{ kind: "email" | "phone"; value: string; path: string }> = [];
  const walk = (v: unknown, path: string) => {
    if (typeof v === "string") {
      if (!POINTER.test(v)) for (const p of findPii(v)) out.push({ kind: p.kind, value: p.value, path });
    } else if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, `${path}[${i}]`);
    } else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v)) walk(k, `${path}.${k}(key)`), walk(x, `${path}.${k}`);
  };
  walk(value, "");
  return out;
}

/**
 * Free text bound for the ledger: emails and phones go to the vault, their redacted form stays.
 * Each is replaced where it was found, so the same digits inside an id elsewhere stay intact.
 */
export function vaultPii(
  vault: {
    put(
      tenantId: string,
      kind: "email" | "phone",
      value: string,
    ): { redacted: string; hash: string; vault_ref: string };
  },
  tenantId: string,
  text: string,
): { text: string; refs: Array<{ redacted: string; hash: string; vault_ref: string }> } {
  let out = "";
  let at = 0;
  const refs = [];
  for (const p of findPii(text)) {
    if (p.start < at) continue;
    const v = vault.put(tenantId, p.kind, p.value);
    refs.push(v);
    out += text.slice(at, p.start) + v.redacted;
    at = p.end;
  }
  return { text: out + text.slice(at), refs };
}
