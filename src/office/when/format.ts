import { Temporal } from "temporal-polyfill";
import type { TWhen } from "../../../contracts/when.js";

/**
 * Times as a person reads them on a card: absolute dates ("Mon 5 Jan 2026"), 24-hour clock, and
 * the zone named, so the words stay true whenever and wherever they are read. English keeps its
 * compact form; other languages get Intl's ("terça-feira, 1 de dezembro de 2026").
 */

/** The Intl tag of a catalog language; undefined for English, which is written by hand below. */
function intlTag(locale: string | undefined): string | undefined {
  return locale === "pt" ? "pt-PT" : undefined;
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A calendar date as a Date Intl can name (noon UTC, so no zone moves it to another day). */
const noonUtc = (d: Temporal.PlainDate) => new Date(Date.UTC(d.year, d.month - 1, d.day, 12));

function day(d: Temporal.PlainDate, locale?: string): string {
  const tag = intlTag(locale);
  if (tag)
    return new Intl.DateTimeFormat(tag, {
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(noonUtc(d));
  return `${WEEKDAYS[d.dayOfWeek - 1]} ${d.day} ${MONTHS[d.month - 1]} ${d.year}`;
}

function clock(t: Temporal.PlainTime): string {
  return t.toString({ smallestUnit: "minute" });
}

function weekdayName(d: number, locale?: string): string {
  const tag = intlTag(locale);
  // 2024-01-01 was a Monday: day d of that week names weekday d.
  if (tag)
    return new Intl.DateTimeFormat(tag, { weekday: "short", timeZone: "UTC" }).format(
      noonUtc(Temporal.PlainDate.from({ year: 2024, month: 1, day: d })),
    );
  return WEEKDAYS[d - 1]!;
}

function weekdayList(weekdays: number[], locale?: string): string {
  const sorted = [...weekdays].sort((a, b) => a - b);
  const consecutive = sorted.every((d, i) => i === 0 || d === sorted[i - 1]! + 1);
  if (consecutive && sorted.length > 2)
    return `${weekdayName(sorted[0]!, locale)}–${weekdayName(sorted.at(-1)!, locale)}`;
  return sorted.map((d) => weekdayName(d, locale)).join(", ");
}

/** "Mon 5 Jan 2026, 15:00–15:30 (Europe/Lisbon)"; a slot past midnight names both days. */
export function formatSlot(start: number, end: number, timezone: string, locale?: string): string {
  const a = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(timezone);
  const b = Temporal.Instant.fromEpochMilliseconds(end).toZonedDateTimeISO(timezone);
  const sameDay = a.toPlainDate().equals(b.toPlainDate());
  const until = sameDay ? clock(b.toPlainTime()) : `${day(b.toPlainDate(), locale)}, ${clock(b.toPlainTime())}`;
  return `${day(a.toPlainDate(), locale)}, ${clock(a.toPlainTime())}${sameDay ? "–" : " – "}${until} (${timezone})`;
}

/**
 * The window in words: "Mon 5 Jan 2026, 15:00 (Europe/Lisbon)",
 * "Tue 1 Dec 2026 – Mon 14 Dec 2026 (Tue–Thu), 14:00–17:00 (Europe/Lisbon)".
 */
export function describeWhen(when: TWhen, locale?: string): string {
  const first = Temporal.PlainDate.from(when.start_date);
  const last = Temporal.PlainDate.from(when.end_date);
  const days = first.equals(last)
    ? day(first, locale)
    : `${day(first, locale)} – ${day(last, locale)}${when.weekdays ? ` (${weekdayList(when.weekdays, locale)})` : ""}`;
  const times = when.exact_start ? when.from_time : `${when.from_time}–${when.to_time}`;
  return `${days}, ${times} (${when.timezone})`;
}
