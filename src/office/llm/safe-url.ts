/**
 * The only links a model may put in front of a person: `https:` and `mailto:`. The check runs
 * on the raw string *and* on the parsed URL because browsers forgive a lot: they drop tabs and
 * newlines inside a scheme (`java\tscript:`), ignore leading control characters and case, and
 * resolve `//host` against the page. Any of those in the raw string is refused outright.
 */
const MAX_URL = 2000;

export function safeHref(href: unknown): string | null {
  if (typeof href !== "string" || href.length === 0 || href.length > MAX_URL) return null;
  // Whitespace and C0/C1 controls never belong in a link we emit; their presence means someone
  // is trying to get past a scheme check.
  if (/[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff\\]/u.test(href))
    return null;
  if (href.startsWith("//")) return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol === "https:") {
    if (!url.hostname) return null;
    // `https://bank.example@evil.example` shows one host and opens another.
    if (url.username || url.password) return null;
    if (!/^https:\/\//.test(href)) return null;
    return url.href;
  }
  if (url.protocol === "mailto:") {
    if (!/^mailto:/.test(href)) return null;
    return url.href;
  }
  return null;
}
