/**
 * "Remind me 15 minutes before" / "lembra-me 10 minutos antes": a reminder asked for with a
 * meeting. Read out of the message before the meeting's own words are, so "15 minutes" is not
 * taken for the meeting's length. Anchored on fixed words, linear.
 */

const EN =
  /(?:,\s*|\s+)?(?:and\s+|please\s+)*remind me\s+(\d{1,3})\s*(minutes?|mins?|hours?|hrs?|h)\s+(?:before|ahead|earlier|in advance)\b/i;
const PT =
  /(?:,\s*|\s+)?(?:e\s+)?(?:lembra-me|lembre-me|lembra me|lembre me|avisa-me|avise-me)\s+(\d{1,3})\s*(minutos?|min|horas?|h)\s+antes\b/iu;

/** The reminder's lead time in minutes and the message without those words, or null. */
export function parseReminder(text: string): { minutes: number; rest: string } | null {
  const m = EN.exec(text) ?? PT.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const minutes = /^h/i.test(m[2]!) ? n * 60 : n;
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 10_080) return null;
  return { minutes, rest: `${text.slice(0, m.index)}${text.slice(m.index + m[0].length)}`.trim() };
}
