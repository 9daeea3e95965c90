import * as chrono from "chrono-node";
import { Temporal } from "temporal-polyfill";
import type { TWhen } from "../../../contracts/when.js";
import { findTimeZone, isValidTimeZone } from "../tools/tz.js";
import { portugueseWords } from "./parse-pt.js";

/**
 * Reads when a meeting may happen from what a person typed, relative to the moment they asked
 * and in their timezone (a zone named in the text wins). Dates and times come from chrono-node;
 * what it does not read — weekday ranges ("Tue–Thu"), "next week", "the 31st", parts of the
 * day — is read here. Day arithmetic is Temporal's. The answer is wall-clock data in one zone
 * (see ZWhen); turning it into instants happens only when a slot is picked.
 */

export interface ParseWhenOptions {
  /** The instant the words were written, epoch ms. */
  now: number;
  /** The zone the person lives in; a zone named in the text replaces it. */
  timezone: string;
  /** The language the words are in ("pt" reads Portuguese with chrono's Portuguese parser); English when absent. */
  locale?: string | undefined;
}

/** Candidate days when only a time or a weekday set is given. */
const OPEN_DAYS = 14;
const DEFAULT_FROM = "09:00";
const DEFAULT_TO = "17:00";

const PARTS_OF_DAY: Array<[RegExp, string, string]> = [
  [/\bearly morning\b/, "08:00", "10:00"],
  [/\bmorning\b/, "09:00", "12:00"],
  [/\b(?:lunch ?time|around lunch|over lunch)\b/, "12:00", "14:00"],
  [/\bafternoon\b/, "13:00", "17:00"],
  [/\b(?:evening|tonight)\b/, "17:00", "20:00"],
  [/\b(?:end of (?:the )?day|eod)\b/, "16:00", "18:00"],
];

// "10-12", "2–4pm", "between 2 and 4:30 pm", "9am to 11am" (not inside dates such as 2026-01-05).
const TIME_RANGE =
  /(?<![\d/:.-])\b(?:between\s+)?(\d{1,2})(?::([0-5]\d))?\s*(am|pm)?\s*(?:-|to|until|till|and)\s*(\d{1,2})(?::([0-5]\d))?\s*(am|pm)?\b(?![\d/:.-])/;
const WEEKDAY_NAMES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const WEEKDAY_WORD = String.raw`(mon|tue|wed|thu|fri|sat|sun)(?:day|s|sday|nesday|rsday|urday|\.)?`;
const WEEKDAY_RANGE = new RegExp(String.raw`\b${WEEKDAY_WORD}\s*(?:-|to|through|thru|until|till)\s*${WEEKDAY_WORD}\b`);
const DAY_OF_MONTH =
  /\b(?:on\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))/;
// "30 min", "an hour", "1.5 hours long": lengths, not times ("in 2 hours" stays: it is a time).
const DURATION =
  /(?<!\bin\s)\b(?:\d+(?:\.\d+)?|an?|one|two|three|half an?|ninety|sixty|forty-five|thirty|fifteen|twenty)[\s-]*(?:min(?:ute)?s?|hours?|hrs?|h)\b(?:\s+long)?/g;

function weekdayIndex(word: string): number {
  return WEEKDAY_NAMES.indexOf(word.slice(0, 3)) + 1;
}

function wall(h: number, m: number): string {
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
}

const LAST_MINUTE = 23 * 60 + 59;

function clock(minutes: number): string {
  return wall(Math.floor(minutes / 60), minutes % 60);
}

export function minutesOf(time: string): number {
  const [h, m] = time.split(":").map(Number) as [number, number];
  return h * 60 + m;
}

function hour24(h: number, meridiem: string | undefined): number {
  if (meridiem === "pm") return (h % 12) + 12;
  if (meridiem === "am") return h % 12;
  return h;
}

/** A daily time range in the words, as wall-clock minutes; unmarked small hours are afternoon ("2-4" is 14:00–16:00). */
function timeRange(t: string): { from: string; to: string; rest: string } | undefined {
  const m = TIME_RANGE.exec(t);
  // "and" joins a range only after "between" ("rooms 12 and 14" are not times).
  if (!m || (/\sand\s/.test(m[0]) && !m[0].startsWith("between"))) return undefined;
  const [, h1, m1, ap1, h2, m2, ap2] = m;
  let a = Number(h1);
  let b = Number(h2);
  if (a > 24 || b > 24) return undefined;
  const first = ap1 ?? (ap2 && ap2 === "pm" && a % 12 <= b % 12 ? ap2 : undefined);
  a = hour24(a, first);
  b = hour24(b, ap2);
  if (!ap1 && !ap2 && a < 8 && b <= 8) {
    a += 12;
    b += 12;
  }
  const from = a * 60 + Number(m1 ?? 0);
  const to = Math.min(b * 60 + Number(m2 ?? 0), LAST_MINUTE);
  if (to <= from || from >= 24 * 60) return undefined;
  return { from: clock(from), to: clock(to), rest: t.replace(m[0], " ") };
}

interface DaySpan {
  start: Temporal.PlainDate;
  end: Temporal.PlainDate;
  weekdays?: number[];
}

/** Monday of the week `today` is in, plus `weeks`. */
function mondayOf(today: Temporal.PlainDate, weeks: number): Temporal.PlainDate {
  return today.subtract({ days: today.dayOfWeek - 1 }).add({ weeks });
}

/** The next date on or after `today` whose day of month is `day` (months without it are skipped). */
function nextDayOfMonth(today: Temporal.PlainDate, day: number): Temporal.PlainDate | undefined {
  if (day < 1 || day > 31) return undefined;
  for (let i = 0, month = today.toPlainYearMonth(); i < 13; i++, month = month.add({ months: 1 })) {
    if (day > month.daysInMonth) continue;
    const d = month.toPlainDate({ day });
    if (Temporal.PlainDate.compare(d, today) >= 0) return d;
  }
  return undefined;
}

/** The week words: "next week", "this week", "the week after next". */
function weekSpan(t: string, today: Temporal.PlainDate): DaySpan | undefined {
  if (/\bweek after next\b/.test(t)) return { start: mondayOf(today, 2), end: mondayOf(today, 2).add({ days: 6 }) };
  if (/\bnext week\b/.test(t)) return { start: mondayOf(today, 1), end: mondayOf(today, 1).add({ days: 6 }) };
  if (/\b(?:this|later this|rest of the) week\b/.test(t))
    return { start: today, end: mondayOf(today, 0).add({ days: 6 }) };
  return undefined;
}

function weekdaySet(t: string): { weekdays: number[]; rest: string } | undefined {
  const range = WEEKDAY_RANGE.exec(t);
  if (range) {
    const from = weekdayIndex(range[1]!);
    const to = weekdayIndex(range[2]!);
    const weekdays: number[] = [];
    for (let d = from; ; d = (d % 7) + 1) {
      weekdays.push(d);
      if (d === to) break;
    }
    return { weekdays: weekdays.sort((a, b) => a - b), rest: t.replace(range[0], " ") };
  }
  const workdays = /\b(?:weekdays|workdays|work days|business days|working days)\b/;
  if (workdays.test(t)) return { weekdays: [1, 2, 3, 4, 5], rest: t.replace(workdays, " ") };
  const weekend = /\b(?:(?:a |the |this |next )?weekend|saturday or sunday)\b/;
  if (weekend.test(t)) return { weekdays: [6, 7], rest: t.replace(weekend, " ") };
  return undefined;
}

interface ChronoRead {
  date?: Temporal.PlainDate;
  weekday?: number;
  month?: Temporal.PlainYearMonth;
  from?: string;
  to?: string;
  exact?: boolean;
  /** The day a bare time falls on: today if it is still ahead, else tomorrow. */
  timeDate?: Temporal.PlainDate;
}

function readChrono(t: string, nowZoned: Temporal.ZonedDateTime, locale?: string): ChronoRead {
  const reference = { instant: new Date(nowZoned.epochMilliseconds), timezone: nowZoned.offsetNanoseconds / 60e9 };
  const out: ChronoRead = {};
  const parser = locale === "pt" ? chrono.pt : chrono;
  for (const r of parser.parse(t, reference, { forwardDate: true })) {
    if (/^(?:now|right now)$/i.test(r.text.trim())) continue;
    const s = r.start;
    const dayKnown = s.isCertain("day") || r.tags().has("result/relativeDate");
    if (!out.date && dayKnown && s.get("year") && s.get("month") && s.get("day")) {
      out.date = Temporal.PlainDate.from({ year: s.get("year")!, month: s.get("month")!, day: s.get("day")! });
    } else if (!out.date && out.weekday === undefined && s.isCertain("weekday")) {
      out.weekday = s.get("weekday") === 0 ? 7 : s.get("weekday")!;
      out.date = Temporal.PlainDate.from({ year: s.get("year")!, month: s.get("month")!, day: s.get("day")! });
    } else if (!out.date && !out.month && s.isCertain("month") && s.get("year")) {
      out.month = Temporal.PlainYearMonth.from({ year: s.get("year")!, month: s.get("month")! });
    }
    const casualPart = [...r.tags()].some((tag) => /casualReference\/(?:morning|afternoon|evening|night)/.test(tag));
    if (!out.from && s.isCertain("hour") && !casualPart) {
      out.from = wall(s.get("hour")!, s.get("minute") ?? 0);
      out.timeDate = Temporal.PlainDate.from({ year: s.get("year")!, month: s.get("month")!, day: s.get("day")! });
      const e = r.end;
      if (e?.isCertain("hour")) {
        out.to = wall(e.get("hour")!, e.get("minute") ?? 0);
        out.exact = false;
      } else out.exact = true;
    }
  }
  return out;
}

/**
 * The meeting window in `text`, or null when the text names neither a day nor a time. Without
 * a time of day the window is 09:00–17:00; "at 3pm" is an exact start; "2–4pm" a daily range.
 */
export function parseWhen(text: string, opts: ParseWhenOptions): TWhen | null {
  const source = text.trim().slice(0, 300);
  if (!source) return null;
  const timezone = findTimeZone(source) ?? (isValidTimeZone(opts.timezone) ? opts.timezone : "UTC");
  const nowZoned = Temporal.Instant.fromEpochMilliseconds(opts.now).toZonedDateTimeISO(timezone);
  const today = nowZoned.toPlainDate();
  const lower = source.toLowerCase().replace(/[\u2013\u2014\u2012]/g, "-");
  // Portuguese hours ("15h") go first: the duration words below would read them as lengths.
  let t = (opts.locale === "pt" ? portugueseWords(lower) : lower).replace(DURATION, " ");

  const week = weekSpan(t, today);
  const set = weekdaySet(t);
  if (set) t = set.rest;
  const range = timeRange(t);
  if (range) t = range.rest;
  const dom = DAY_OF_MONTH.exec(t);
  const dayOfMonth = dom ? nextDayOfMonth(today, Number(dom[1])) : undefined;
  if (dom) t = t.replace(dom[0], " ");
  // The week words are ours; chrono would read "next week" as "in seven days".
  const read = readChrono(
    t.replace(/\b(?:the )?(?:week after next|next week|(?:later |rest of )?this week)\b/g, " "),
    nowZoned,
    opts.locale,
  );

  let span: DaySpan | undefined;
  if (dayOfMonth) span = { start: dayOfMonth, end: dayOfMonth };
  else if (read.weekday && week) {
    const d = week.start.add({ days: (read.weekday - week.start.dayOfWeek + 7) % 7 });
    span = { start: d, end: d };
  } else if (read.date) span = { start: read.date, end: read.date };
  else if (read.month) {
    const first = read.month.toPlainDate({ day: 1 });
    const start = Temporal.PlainDate.compare(first, today) < 0 ? today : first;
    span = { start, end: read.month.toPlainDate({ day: read.month.daysInMonth }), weekdays: [1, 2, 3, 4, 5] };
  } else if (week) {
    // "next week" means its working days; "this week" whatever is left of it, weekend included.
    const future = Temporal.PlainDate.compare(week.start, today) > 0;
    span = { ...week, ...(set ? { weekdays: set.weekdays } : future ? { weekdays: [1, 2, 3, 4, 5] } : {}) };
  } else if (set) span = { start: today, end: today.add({ days: OPEN_DAYS - 1 }), weekdays: set.weekdays };
  if (week && set && span) span.weekdays = set.weekdays;
  if (week && span && Temporal.PlainDate.compare(span.start, today) < 0) span.start = today;

  let from = range?.from ?? read.from;
  let to = range?.to ?? read.to;
  let exact = range ? false : (read.exact ?? false);
  // "after 4pm" opens a window at that time, "before 11am" closes one.
  if (exact && from && !range) {
    const edge = /\b(after|from|before|by|until|no later than)\s+(?:\d|noon)/.exec(t)?.[1];
    if (edge === "after" || edge === "from")
      [to, exact] = [clock(Math.min(Math.max(minutesOf(DEFAULT_TO), minutesOf(from) + 120), LAST_MINUTE)), false];
    else if (edge)
      [from, to, exact] = [clock(Math.min(minutesOf(DEFAULT_FROM), Math.max(0, minutesOf(from) - 120))), from, false];
  }
  if (!from) {
    const part = PARTS_OF_DAY.find(([re]) => re.test(t));
    if (part) [, from, to] = part;
  }
  if (!span && !from) return null;
  // A time with no day: the next time it comes round (chrono's forward date), or, for a
  // range, any of the coming days.
  span ??=
    exact && read.timeDate
      ? { start: read.timeDate, end: read.timeDate }
      : { start: today, end: today.add({ days: OPEN_DAYS - 1 }) };
  from ??= DEFAULT_FROM;
  // An exact start keeps an hour after it, so "ends by" reads sensibly; slots ignore it.
  to ??= exact ? clock(Math.min(minutesOf(from) + 60, LAST_MINUTE)) : DEFAULT_TO;
  if (!exact && minutesOf(to) <= minutesOf(from)) to = clock(LAST_MINUTE);

  return {
    timezone,
    start_date: span.start.toString(),
    end_date: span.end.toString(),
    ...(span.weekdays && span.weekdays.length < 7 ? { weekdays: span.weekdays } : {}),
    from_time: from,
    to_time: to,
    exact_start: exact,
    asked_at: new Date(opts.now).toISOString(),
    source,
  };
}
