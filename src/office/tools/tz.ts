/** Time-zone arithmetic on top of Intl only (no tz database of our own). */

const fmtCache = new Map<string, Intl.DateTimeFormat>();

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Minutes east of UTC of `tz` at instant `utcMs`. */
export function offsetMinutes(tz: string, utcMs: number): number {
  let f = fmtCache.get(tz);
  if (!f) fmtCache.set(tz, (f = new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: "longOffset" })));
  const name = f.formatToParts(new Date(utcMs)).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  if (!m) return 0;
  return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

export interface LocalDateTime {
  y: number;
  m: number;
  d: number;
  hh: number;
  mm: number;
}

/** The UTC instant of a wall-clock time in `tz` (the later one in a DST gap, the first in an overlap). */
export function localToUtc(tz: string, l: LocalDateTime): number {
  const guess = Date.UTC(l.y, l.m - 1, l.d, l.hh, l.mm);
  let utc = guess - offsetMinutes(tz, guess) * 60_000;
  utc = guess - offsetMinutes(tz, utc) * 60_000;
  return utc;
}

export function utcToLocal(tz: string, utcMs: number): LocalDateTime {
  const d = new Date(utcMs + offsetMinutes(tz, utcMs) * 60_000);
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate(), hh: d.getUTCHours(), mm: d.getUTCMinutes() };
}

/** Offset transitions of `tz` during a UTC year, found by daily probing then bisection. */
export function transitionsInYear(tz: string, year: number): Array<{ atUtc: number; from: number; to: number }> {
  const out: Array<{ atUtc: number; from: number; to: number }> = [];
  let t = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  let off = offsetMinutes(tz, t);
  while (t < end) {
    const next = t + 86_400_000;
    const o2 = offsetMinutes(tz, next);
    if (o2 !== off) {
      let lo = t;
      let hi = next;
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 2 / 60_000) * 60_000;
        if (offsetMinutes(tz, mid) === off) lo = mid;
        else hi = mid;
      }
      out.push({ atUtc: hi, from: off, to: o2 });
      off = o2;
    }
    t = next;
  }
  return out;
}

const ABBREVIATIONS: Record<string, string> = {
  utc: "UTC",
  gmt: "UTC",
  wet: "Europe/Lisbon",
  west: "Europe/Lisbon",
  bst: "Europe/London",
  cet: "Europe/Paris",
  cest: "Europe/Paris",
  eet: "Europe/Athens",
  eest: "Europe/Athens",
  est: "America/New_York",
  edt: "America/New_York",
  et: "America/New_York",
  cst: "America/Chicago",
  cdt: "America/Chicago",
  ct: "America/Chicago",
  mst: "America/Denver",
  mdt: "America/Denver",
  pst: "America/Los_Angeles",
  pdt: "America/Los_Angeles",
  pt: "America/Los_Angeles",
  ist: "Asia/Kolkata",
  jst: "Asia/Tokyo",
  aest: "Australia/Sydney",
  aedt: "Australia/Sydney",
  brt: "America/Sao_Paulo",
};

const CITIES: Record<string, string> = {
  lisbon: "Europe/Lisbon",
  porto: "Europe/Lisbon",
  london: "Europe/London",
  paris: "Europe/Paris",
  berlin: "Europe/Berlin",
  madrid: "Europe/Madrid",
  amsterdam: "Europe/Amsterdam",
  "new york": "America/New_York",
  chicago: "America/Chicago",
  denver: "America/Denver",
  "los angeles": "America/Los_Angeles",
  "san francisco": "America/Los_Angeles",
  "sao paulo": "America/Sao_Paulo",
  "são paulo": "America/Sao_Paulo",
  tokyo: "Asia/Tokyo",
  sydney: "Australia/Sydney",
};

/** Finds a timezone in free text: an IANA name, a common abbreviation, or "<city> time". */
export function findTimeZone(text: string): string | undefined {
  for (const m of text.matchAll(/\b([A-Z][A-Za-z_]+\/[A-Z][A-Za-z_]+(?:\/[A-Z][A-Za-z_]+)?)\b/g)) {
    if (isValidTimeZone(m[1]!)) return m[1]!;
  }
  for (const m of text.matchAll(/\b([A-Z]{2,4})\b/g)) {
    const tz = ABBREVIATIONS[m[1]!.toLowerCase()];
    if (tz) return tz;
  }
  const lower = text.toLowerCase();
  for (const [city, tz] of Object.entries(CITIES)) {
    if (new RegExp(`\\b${city}(?:\\s+time)?\\b`).test(lower) && new RegExp(`${city}\\s+time|time\\s*zone|\\btz\\b|\\(${city}\\)|in ${city}`).test(lower)) return tz;
  }
  return undefined;
}

/** Normalises a timezone a person typed ("Europe/Lisbon", "CET", "lisbon") or returns undefined. */
export function normalizeTimeZone(raw: string): string | undefined {
  const s = raw.trim();
  if (isValidTimeZone(s) && s.includes("/")) return s;
  if (s.toUpperCase() === "UTC") return "UTC";
  return ABBREVIATIONS[s.toLowerCase()] ?? CITIES[s.toLowerCase()];
}
