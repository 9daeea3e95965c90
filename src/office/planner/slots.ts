import { EMAIL_RE } from "../pii.js";
import { isMeetingUrl, linkServiceOf } from "../tools/meeting-rooms.js";
import { findTimeZone, parseWhen } from "../when/index.js";
import type { SlotValues } from "./planner.js";

/** Slot extraction for meeting requests. Pure and table-tested; every field is optional. */

const WORD_NUM: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  ten: 10,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  "forty-five": 45,
  sixty: 60,
  ninety: 90,
};

/** "30 minutos", "meia hora", "uma hora e meia", "1h30 de reunião" is not read: "15h" is a time of day. */
function findDurationPt(text: string): number | undefined {
  const t = text.toLowerCase();
  if (/(?<![\p{L}])hora e meia(?![\p{L}])/u.test(t)) return 90;
  if (/(?<![\p{L}])meia[\s-]hora(?![\p{L}])/u.test(t)) return 30;
  if (/(?<![\p{L}])quarto de hora(?![\p{L}])/u.test(t)) return 15;
  const m = /(?<![\p{L}\d])(\d{1,3}|uma|duas|tr[êe]s)\s*(minutos?|mins?|horas?)(?![\p{L}])/u.exec(t);
  if (!m) return undefined;
  const n = /^\d/.test(m[1]!)
    ? Number(m[1])
    : ({ uma: 1, duas: 2, três: 3, tres: 3 } as Record<string, number>)[m[1]!]!;
  const minutes = m[2]!.startsWith("h") ? n * 60 : n;
  return minutes >= 5 && minutes <= 8 * 60 ? minutes : undefined;
}

function findDuration(text: string): number | undefined {
  const t = text.toLowerCase();
  if (/\bhalf(?: an| a)? hour\b|\bhalf-hour\b|\bhalf hour\b/.test(t)) return 30;
  if (/\bquarter(?: of an)? hour\b/.test(t)) return 15;
  if (/\bhour and a half\b/.test(t)) return 90;
  const m =
    /\b(\d{1,3}(?:\.\d)?|an?|one|two|three|fifteen|twenty|thirty|forty-five|sixty|ninety)\s*-?\s*(minutes?|mins?|m|hours?|hrs?|h)\b/.exec(
      t,
    );
  if (!m) return undefined;
  const n = /^\d/.test(m[1]!) ? Number(m[1]) : WORD_NUM[m[1]!];
  if (n === undefined || !Number.isFinite(n)) return undefined;
  const minutes = /^h/.test(m[2]!) ? Math.round(n * 60) : Math.round(n);
  return minutes >= 5 && minutes <= 8 * 60 ? minutes : undefined;
}

const NOT_NAMES = new Set([
  "me",
  "us",
  "you",
  "them",
  "the",
  "a",
  "an",
  "my",
  "our",
  "zoom",
  "google",
  "teams",
  "meet",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "tomorrow",
  "today",
  "next",
  "this",
  "everyone",
  "team",
  "i",
  "europe",
  "america",
  "asia",
  "utc",
  "cet",
  "est",
  "pst",
  "gmt",
  "mon",
  "tue",
  "tues",
  "wed",
  "thu",
  "thur",
  "thurs",
  "fri",
  "sat",
  "sun",
  "on",
  "at",
  "via",
  "by",
  "in",
  "next",
  "weekdays",
]);

/** "with Maria", "with Maria Silva", "call Maria", "meet João" → the attendee's display name ("com a Ana" in Portuguese). */
function findAttendee(text: string, locale?: string): string | undefined {
  const nameWord = "[A-ZÀ-Ý][a-zà-ÿ'’-]+";
  const portuguese =
    locale === "pt"
      ? [new RegExp(`(?<![\\p{L}])com\\s+(?:(?:a|o|as|os)\\s+)?(${nameWord}(?:\\s+${nameWord})?)`, "u")]
      : [];
  const patterns = [
    ...portuguese,
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

/** Where the meeting happens, from the words: a pasted URL, a named service (whose link the person pastes), Jitsi, phone, in person. */
export function findMeeting(text: string): Pick<SlotValues, "meeting_link" | "meeting_url" | "link_label"> {
  const url = /\bhttps:\/\/[^\s<>"')]+/i.exec(text)?.[0]?.replace(/[.,;:!?]+$/, "");
  if (url && isMeetingUrl(url)) return { meeting_link: "link", meeting_url: url, link_label: linkServiceOf(url) };
  const t = text.toLowerCase();
  if (/\bjitsi\b/.test(t)) return { meeting_link: "jitsi" };
  if (/google meet|\bg-?meet\b|\bhangouts?\b|\bgoogle\b/.test(t))
    return { meeting_link: "link", link_label: "Google Meet" };
  if (/\bzoom\b/.test(t)) return { meeting_link: "link", link_label: "Zoom" };
  if (/\b(ms |microsoft )?teams\b/.test(t)) return { meeting_link: "link", link_label: "Teams" };
  if (/\bby phone\b|\bphone call\b|\bover the phone\b|\bon the phone\b/.test(t)) return { meeting_link: "phone" };
  if (/\bin[- ]person\b|\bat the office\b|\bface[- ]to[- ]face\b/.test(t)) return { meeting_link: "in_person" };
  if (/\bvideo( call)?\b/.test(t)) return { meeting_link: "jitsi" };
  return {};
}

const WEEK_WORDS = /\b(?:the week after next|next week|this week)\b/i;
const WEEK_WORDS_PT =
  /(?<![\p{L}])(?:(?:n?a\s+)?pr[óo]xima semana|semana que vem|para a semana|n?esta semana)(?![\p{L}])/iu;

/** A fixed reference: whether words name a time does not depend on when they are read. */
const PROBE = { now: Date.UTC(2026, 0, 7, 12), timezone: "UTC" };

/**
 * Answers of `mentionsTime` by locale and text. The planner asks about the same words several
 * times per message (is it scheduling, then its slots), and each ask is a full date parse; the
 * answer depends on nothing else (the reference time is fixed). Bounded: emptied when full.
 */
const mentions = new Map<string, boolean>();

/** True when the text says when (a day, a date, a time of day): the words then become the job's time window. */
export function mentionsTime(text: string, locale?: string): boolean {
  // parseWhen reads only the first 300 characters of the trimmed text.
  const key = `${locale ?? ""}\0${text.trim().slice(0, 300)}`;
  let said = mentions.get(key);
  if (said === undefined) {
    said = parseWhen(text, { ...PROBE, locale }) !== null;
    if (mentions.size >= 256) mentions.clear();
    mentions.set(key, said);
  }
  return said;
}

/** The meeting details in `text`, read as `locale` says (Portuguese words when "pt"; English always). */
export function extractMeetingSlots(text: string, locale?: string): SlotValues {
  const slots: SlotValues = {};
  const duration = (locale === "pt" ? findDurationPt(text) : undefined) ?? findDuration(text);
  if (duration) slots.duration_minutes = duration;
  const attendee = findAttendee(text, locale);
  if (attendee) slots.attendee_name = attendee;
  const email = text.match(EMAIL_RE)?.[0];
  if (email) slots.attendee_email = email;
  // "with maria@acme.com": the address's first name-like part names the attendee on the card.
  const local = email?.split("@")[0]?.split(/[._+-]/)[0];
  if (!attendee && local && /^[a-z]{2,}$/i.test(local))
    slots.attendee_name = local[0]!.toUpperCase() + local.slice(1).toLowerCase();
  // The person's own words travel as the window's source; Office resolves them into a
  // structured window (relative to the moment asked, in the job's timezone) once, at intake.
  // A week alone ("next week") is a hint: the days and times within it are still asked for.
  const week = WEEK_WORDS.exec(text) ?? (locale === "pt" ? WEEK_WORDS_PT.exec(text) : null);
  if (week && !mentionsTime(text.replace(week[0], " "), locale)) slots.day_hint = week[0].toLowerCase();
  else if (mentionsTime(text, locale)) slots.time_window = text.trim().slice(0, 300);
  const tz = findTimeZone(text);
  if (tz) slots.timezone = tz;
  Object.assign(slots, findMeeting(text));
  return slots;
}
