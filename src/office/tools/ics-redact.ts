/**
 * Rewrites an `.ics` so an erased value no longer appears in it: lines are unfolded, every
 * occurrence (any case) becomes the redacted form, and lines are folded again. An ATTENDEE
 * left with a redacted address asks for no reply (RSVP=FALSE): nobody can answer for it.
 * The result is still one valid RFC 5545 calendar; `mailto:m***@acme.com` is a well-formed URI.
 */
export function redactIcs(ics: string, value: string, redacted: string): string {
  if (!value) return ics;
  const needle = value.toLowerCase();
  const lines = ics.replace(/\r?\n[ \t]/g, "").split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  let changed = false;
  const out = lines.map((line) => {
    if (!line.toLowerCase().includes(needle)) return line;
    changed = true;
    let next = replaceInsensitive(line, value, redacted);
    if (/^ATTENDEE[;:]/i.test(next)) next = next.replace(/;RSVP=TRUE(?=[;:])/i, ";RSVP=FALSE");
    return next;
  });
  return changed ? `${out.map(foldLine).join("\r\n")}\r\n` : ics;
}

/** Literal replace ignoring case: addresses are matched the way the vault canonicalises them. */
export function replaceInsensitive(text: string, value: string, by: string): string {
  const lower = text.toLowerCase();
  const needle = value.toLowerCase();
  let out = "";
  let at = 0;
  for (let i = lower.indexOf(needle); i >= 0; i = lower.indexOf(needle, at)) {
    out += text.slice(at, i) + by;
    at = i + value.length;
  }
  return out + text.slice(at);
}

/** RFC 5545 line folding at 75 octets, never inside a UTF-8 sequence (continuation lines start with a space). */
function foldLine(line: string): string {
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // back off to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx)
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString("utf8"));
    start = end;
    limit = 74;
  }
  return parts.join("\r\n ");
}
