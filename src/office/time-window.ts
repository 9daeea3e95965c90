/**
 * Reads a person's "when" ("Tue–Thu, 14:00–17:00", "tomorrow afternoon", "next week") into a
 * structured window. Pure; the planner uses it to tell whether a time window was given, the
 * calendar tool to pick a concrete slot inside it.
 */

export interface TimeWindow {
  /** 0 = Sunday … 6 = Saturday */
  weekdays?: number[];
  fromMin?: number;
  toMin?: number;
  day?: "today" | "tomorrow";
  week?: "this" | "next";
  date?: { y: number; m: number; d: number };
}

const DAYS: Array<[RegExp, number]> = [
  [/^sun(day)?$/, 0],
  [/^mon(day)?$/, 1],
  [/^tue(s|sday)?$/, 2],
  [/^wed(nesday)?$/, 3],
  [/^thu(r|rs|rsday)?$/, 4],
  [/^fri(day)?$/, 5],
  [/^sat(urday)?$/, 6],
];
const DAY_WORD = "(sun(?:day)?|mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|sat(?:urday)?)";
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function dayIndex(word: string): number | undefined {
  const w = word.toLowerCase();
  return DAYS.find(([re]) => re.test(w))?.[1];
}

/** "14:00", "2pm", "2:30 pm", "14h" → minutes after midnight; `pm` hint applies to bare hours. */
function toMinutes(raw: string, pmHint?: boolean): number | undefined {
  const m = /^(\d{1,2})(?::|h|\.)?(\d{2})?\s*(am|pm)?$/i.exec(raw.trim());
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = m[2] ? Number(m[2]) : 0;
  const ap = m[3]?.toLowerCase() ?? (pmHint ? "pm" : undefined);
  if (ap === "pm" && h < 12) h += 12;
  if (ap === "am" && h === 12) h = 0;
  if (h > 23 || min > 59) return undefined;
  return h * 60 + min;
}

export function parseTimeWindow(text: string): TimeWindow {
  const full = text.toLowerCase().replace(/[–—]/g, "-");
  // Dates are read separately below; removing them keeps "2026-01-05" from reading as 01–05h.
  const t = full.replace(/\b\d{4}-\d{2}-\d{2}\b/g, " ");
  const w: TimeWindow = {};

  const range = new RegExp(`\\b${DAY_WORD}\\s*(?:-|to|through|thru|until)\\s*${DAY_WORD}\\b`).exec(t);
  if (range) {
    const a = dayIndex(range[1]!);
    const b = dayIndex(range[2]!);
    if (a !== undefined && b !== undefined) {
      const days: number[] = [];
      for (let d = a; ; d = (d + 1) % 7) {
        days.push(d);
        if (d === b || days.length > 7) break;
      }
      w.weekdays = days;
    }
  } else if (/\bweekdays?\b|\bworkdays?\b/.test(t)) {
    w.weekdays = [1, 2, 3, 4, 5];
  } else {
    const found = [...t.matchAll(new RegExp(`\\b${DAY_WORD}\\b`, "g"))]
      .map((m) => dayIndex(m[1]!))
      .filter((d): d is number => d !== undefined);
    if (found.length) w.weekdays = [...new Set(found)];
  }

  const hm = "(\\d{1,2}(?::\\d{2}|h\\d{0,2})?\\s*(?:am|pm)?)";
  const tr = new RegExp(`\\b(?:between\\s+)?${hm}\\s*(?:-|to|and|until)\\s*${hm}`).exec(t);
  if (tr) {
    const pm = /pm/.test(tr[2]!) && !/am/.test(tr[1]!);
    const from = toMinutes(tr[1]!, pm && Number(tr[1]!.split(/[:h]/)[0]) < 12 && !/:/.test(tr[1]!) ? true : pm);
    const to = toMinutes(tr[2]!);
    if (from !== undefined && to !== undefined && to > from) {
      w.fromMin = from;
      w.toMin = to;
    }
  }
  if (w.fromMin === undefined) {
    const at = /\b(?:at|from|after|around)\s+(\d{1,2}(?::\d{2})?\s*(?:am|pm)?|\d{1,2}h\d{0,2})\b/.exec(t) ?? /\b(\d{1,2}(?::\d{2})?\s*(?:am|pm))\b/.exec(t) ?? /\b(\d{1,2}:\d{2})\b/.exec(t);
    const min = at ? toMinutes(at[1]!, !/am|:/.test(at[1]!) && Number(at[1]!.split(/[:h]/)[0]) < 8) : undefined;
    if (min !== undefined) {
      w.fromMin = min;
      w.toMin = Math.min(min + 60, 24 * 60);
    }
  }
  if (w.fromMin === undefined) {
    if (/\bmorning\b/.test(t)) [w.fromMin, w.toMin] = [9 * 60, 12 * 60];
    else if (/\bafternoon\b/.test(t)) [w.fromMin, w.toMin] = [13 * 60, 17 * 60];
    else if (/\bevening\b/.test(t)) [w.fromMin, w.toMin] = [17 * 60, 19 * 60];
    else if (/\blunch(time)?\b|\bnoon\b/.test(t)) [w.fromMin, w.toMin] = [12 * 60, 14 * 60];
  }

  if (/\btoday\b/.test(t)) w.day = "today";
  else if (/\btomorrow\b|\btmrw\b/.test(t)) w.day = "tomorrow";
  if (/\bnext week\b/.test(t) || new RegExp(`\\bnext ${DAY_WORD}\\b`).test(t)) w.week = "next";
  else if (/\bthis week\b|\blater this week\b/.test(t)) w.week = "this";

  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(full);
  const named = new RegExp(`\\b(${MONTHS.join("|")})[a-z]*\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`).exec(t);
  if (iso) w.date = { y: Number(iso[1]), m: Number(iso[2]), d: Number(iso[3]) };
  else if (named) w.date = { y: 0, m: MONTHS.indexOf(named[1]!) + 1, d: Number(named[2]) };
  return w;
}

/** A window narrow enough to schedule in: some days, a time of day, or a specific date. */
export function isSpecificWindow(w: TimeWindow): boolean {
  return Boolean(w.weekdays?.length || w.fromMin !== undefined || w.day || w.date);
}
