/**
 * What counts as PII in free text and how it is shown once redacted. Redacted forms are built
 * so they can never match the patterns again (the local part keeps one letter and stars), which
 * is what lets the ledger's no_raw_pii policy stay a plain regex scan.
 */

export const EMAIL_RE = /[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/gi;

/**
 * Phone-like runs: an optional +, then 8+ digits/spaces/dashes/parens with at least 7 digits.
 * ISO dates and times are excluded by the caller (`stripTimestamps`), which keeps card
 * timestamps from reading as phone numbers.
 */
export const PHONE_RE = /\+?\(?\d[\d\s().-]{6,}\d/g;

const ISO_TS_RE = /\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g;

export function stripTimestamps(text: string): string {
  return text.replace(ISO_TS_RE, "<ts>");
}

export function isEmail(value: string): boolean {
  return /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i.test(value.trim());
}

export function digitsOf(value: string): string {
  return value.replace(/\D/g, "");
}

export function isPhone(value: string): boolean {
  const d = digitsOf(value);
  return d.length >= 7 && d.length <= 15 && /^\+?[\d\s().-]+$/.test(value.trim());
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

/** Every email and phone found in a text, in order of appearance. */
export function findPii(text: string): Array<{ kind: "email" | "phone"; value: string }> {
  const found: Array<{ kind: "email" | "phone"; value: string; at: number }> = [];
  for (const m of text.matchAll(EMAIL_RE)) found.push({ kind: "email", value: m[0], at: m.index ?? 0 });
  const noEmails = text.replace(EMAIL_RE, (s) => " ".repeat(s.length));
  const masked = noEmails.replace(ISO_TS_RE, (s) => " ".repeat(s.length));
  for (const m of masked.matchAll(PHONE_RE)) {
    if (digitsOf(m[0]).length >= 7) found.push({ kind: "phone", value: m[0].trim(), at: m.index ?? 0 });
  }
  return found.sort((a, b) => a.at - b.at).map(({ kind, value }) => ({ kind, value }));
}

/** Hashes and vault pointers are pointers, not data (as in the ledger's no_raw_pii policy). */
const POINTER = /^(blake3:|vault_ref:)/;

/** Every raw email or phone in the string values (and keys) of a JSON-able value. */
export function findPiiDeep(value: unknown): Array<{ kind: "email" | "phone"; value: string; path: string }> {
  const out: Array<{ kind: "email" | "phone"; value: string; path: string }> = [];
  const walk = (v: unknown, path: string) => {
    if (typeof v === "string") {
      if (!POINTER.test(v)) for (const p of findPii(v)) out.push({ ...p, path });
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(k, `${path}.${k}(key)`), walk(x, `${path}.${k}`);
  };
  walk(value, "");
  return out;
}
