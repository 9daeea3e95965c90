import { createHash } from "node:crypto";
import { EMAIL_RE } from "../pii.js";

/**
 * Storage redaction for LLM packets (protocol doc "History minimization"). By default a
 * stored packet keeps what audit needs (the person's message with placeholders, ids, the
 * model's parsed answer, what validation did) and replaces untrusted context with a digest and a
 * short preview. Secrets and contact details are masked wherever they appear; full packets are
 * kept only when OFFICE_LLM_LOG_FULL=1.
 */
const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}\b/g, "[secret]"],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, "Bearer [secret]"],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g, "[jwt]"],
  [/\b(api[_-]?key|token|secret|password|passwd)\s*[:=]\s*\S+/gi, "$1=[secret]"],
  [EMAIL_RE, "[email]"],
  // International numbers only: a looser pattern would eat dates and time windows.
  [/(?<![\w+])\+\d[\d\s().-]{7,}\d/g, "[phone]"],
];

export function scrubSecrets(s: string): string {
  let out = s;
  for (const [re, rep] of SECRET_PATTERNS) out = out.replace(re, rep);
  return out;
}

export function digest(s: string): string {
  return `sha256:${createHash("sha256").update(s).digest("hex")}`;
}

export function preview(s: string, n = 80): string {
  const clean = scrubSecrets(s).replace(/\s+/g, " ").trim();
  return clean.length > n ? `${clean.slice(0, n - 1)}…` : clean;
}

/** Deep copy with every string scrubbed. */
export function scrubDeep<T>(v: T): T {
  if (typeof v === "string") return scrubSecrets(v) as T;
  if (Array.isArray(v)) return v.map(scrubDeep) as T;
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrubDeep(x)])) as T;
  return v;
}
