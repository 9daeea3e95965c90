import { findTimeZone } from "../tools/tz.js";
import { EMAIL_RE } from "../pii.js";
import { isSpecificWindow, parseTimeWindow, type TimeWindow } from "../time-window.js";
import type { SlotValues } from "./planner.js";

/** Slot extraction for meeting requests. Pure and table-tested; every field is optional. */

const WORD_NUM: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, ten: 10, fifteen: 15, twenty: 20, thirty: 30, "forty-five": 45, sixty: 60, ninety: 90 };

export function findDuration(text: string): number | undefined {
  const t = text.toLowerCase();
  if (/\bhalf(?: an| a)? hour\b|\bhalf-hour\b|\bhalf hour\b/.test(t)) return 30;
  if (/\bquarter(?: of an)? hour\b/.test(t)) return 15;
  if (/\bhour and a half\b/.test(t)) return 90;
  const m = /\b(\d{1,3}(?:\.\d)?|an?|one|two|three|fifteen|twenty|thirty|forty-five|sixty|ninety)\s*-?\s*(minutes?|mins?|m|hours?|hrs?|h)\b/.exec(t);
  if (!m) return undefined;
  const n = /^\d/.test(m[1]!) ? Number(m[1]) : WORD_NUM[m[1]!];
  if (n === undefined || !Number.isFinite(n)) return undefined;
  const minutes = /^h/.test(m[2]!) ? Math.round(n * 60) : Math.round(n);
  return minutes >= 5 && minutes <= 8 * 60 ? minutes : undefined;
}

const NOT_NAMES = new Set([
  "me", "us", "you", "them", "the", "a", "an", "my", "our", "zoom", "google", "teams", "meet", "monday", "tuesday", "wednesday",
  "thursday", "friday", "saturday", "sunday", "tomorrow", "today", "next", "this", "everyone", "team", "i",
  "europe", "america", "asia", "utc", "cet", "est", "pst", "gmt", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
  "on", "at", "via", "by", "in", "next", "weekdays",
]);

/** "with Maria", "with Maria Silva", "call Maria", "meet João" → the attendee's display name. */
export function findAttendee(text: string): string | undefined {
  const nameWord = "[A-ZÀ-Ý][a-zà-ÿ'’-]+";
  const patterns = [
    new RegExp(`\\bwith\\s+(${nameWord}(?:\\s+${nameWord})?)`),
    new RegExp(`\\b(?:meet|call|ring|invite|see)\\s+(${nameWord}(?:\\s+${nameWord})?)`),
    new RegExp(`\\bfor\\s+(${nameWord}(?:\\s+${nameWord})?)\\b`),
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    if (!m) continue;
    // "Acme's Peter" is Peter; keep only the leading run of name-like words ("Ana Tue" → "Ana")
    const raw = m[1]!.split(/\s+/).map((w) => w.replace(/[-'’]+$/, ""));
    const start = raw.length > 1 && /['’]s$/.test(raw[0]!) ? 1 : 0;
    const words = raw.slice(start).filter((w) => !NOT_NAMES.has(w.toLowerCase()));
    const kept: string[] = [];
    for (const w of raw.slice(start)) {
      if (NOT_NAMES.has(w.toLowerCase()) || /['’]s$/.test(w)) break;
      kept.push(w);
    }
    if (kept.length && words.length) return kept.join(" ");
  }
  return undefined;
}

export function findMeetingLink(text: string): SlotValues["meeting_link"] {
  const t = text.toLowerCase();
  if (/google meet|\bg-?meet\b|\bhangouts?\b|\bmeet link\b|\bgoogle\b/.test(t)) return "google_meet";
  if (/\bzoom\b/.test(t)) return "zoom";
  if (/\b(ms |microsoft )?teams\b/.test(t)) return "teams";
  if (/\bby phone\b|\bphone call\b|\bover the phone\b|\bon the phone\b/.test(t)) return "phone";
  if (/\bin[- ]person\b|\bat the office\b|\bface[- ]to[- ]face\b/.test(t)) return "in_person";
  return undefined;
}

const DAY_ABBR = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

/** A canonical, readable window ("Tue–Thu, 14:00–17:00"), deterministic for the same input. */
export function formatWindow(w: TimeWindow): string {
  const parts: string[] = [];
  if (w.day) parts.push(w.day);
  if (w.date) parts.push(`${w.date.y ? `${w.date.y}-` : ""}${String(w.date.m).padStart(2, "0")}-${String(w.date.d).padStart(2, "0")}`);
  if (w.weekdays?.length) {
    const d = w.weekdays;
    const contiguous = d.length > 2 && d.every((v, i) => i === 0 || v === (d[i - 1]! + 1) % 7);
    parts.push(contiguous ? `${DAY_ABBR[d[0]!]}–${DAY_ABBR[d[d.length - 1]!]}` : d.map((x) => DAY_ABBR[x]).join(", "));
  }
  if (w.fromMin !== undefined && w.toMin !== undefined) parts.push(`${hhmm(w.fromMin)}–${hhmm(w.toMin)}`);
  return parts.join(", ");
}

export function extractMeetingSlots(text: string): SlotValues {
  const slots: SlotValues = {};
  const duration = findDuration(text);
  if (duration) slots.duration_minutes = duration;
  const attendee = findAttendee(text);
  if (attendee) slots.attendee_name = attendee;
  const email = text.match(EMAIL_RE)?.[0];
  if (email) slots.attendee_email = email;
  const w = parseTimeWindow(text);
  if (isSpecificWindow(w)) slots.time_window = formatWindow(w);
  if (w.week) slots.day_hint = `${w.week} week`;
  const tz = findTimeZone(text);
  if (tz) slots.timezone = tz;
  const link = findMeetingLink(text);
  if (link) slots.meeting_link = link;
  return slots;
}
