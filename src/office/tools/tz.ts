/**
 * Time-zone names as people write them ("Lisbon time", "CET", "Europe/Lisbon") → IANA zones.
 * No arithmetic here: zone math is Temporal's (src/office/when).
 */

/** Zones already checked: building a formatter costs ≈ 0.1 ms, and messages ask about the same few. */
const checkedZones = new Map<string, boolean>();

export function isValidTimeZone(tz: string): boolean {
  let valid = checkedZones.get(tz);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
      valid = true;
    } catch {
      valid = false;
    }
    if (checkedZones.size >= 1024) checkedZones.clear();
    checkedZones.set(tz, valid);
  }
  return valid;
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

/** Per city: its name as a word, its name said as a zone, the zone (built once, not per message). */
const CITY_PATTERNS = Object.entries(CITIES).map(
  ([city, tz]) =>
    [
      new RegExp(`\\b${city}(?:\\s+time)?\\b`),
      new RegExp(`${city}\\s+time|time\\s*zone|\\btz\\b|\\(${city}\\)|in ${city}`),
      tz,
    ] as const,
);

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
  for (const [named, asZone, tz] of CITY_PATTERNS) if (named.test(lower) && asZone.test(lower)) return tz;
  return undefined;
}

/** Normalises a timezone a person typed ("Europe/Lisbon", "CET", "lisbon") or returns undefined. */
export function normalizeTimeZone(raw: string): string | undefined {
  const s = raw.trim();
  if (isValidTimeZone(s) && s.includes("/")) return s;
  if (s.toUpperCase() === "UTC") return "UTC";
  return ABBREVIATIONS[s.toLowerCase()] ?? CITIES[s.toLowerCase()];
}
