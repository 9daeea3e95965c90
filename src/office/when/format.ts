import { Temporal } from "temporal-polyfill";
import type { TWhen } from "../../../contracts/when.js";

/**
 * Times as a person reads them on a card: absolute dates ("Mon 5 Jan 2026"), 24-hour clock, and
 * the zone named, so the words stay true whenever and wherever they are read.
 */

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function day(d: Temporal.PlainDate): string {
  return `${WEEKDAYS[d.dayOfWeek - 1]} ${d.day} ${MONTHS[d.month - 1]} ${d.year}`;
}

function clock(t: Temporal.PlainTime): string {
  return t.toString({ smallestUnit: "minute" });
}

function weekdayList(weekdays: number[]): string {
  const sorted = [...weekdays].sort((a, b) => a - b);
  const consecutive = sorted.every((d, i) => i === 0 || d === sorted[i - 1]! + 1);
  if (consecutive && sorted.length > 2) return `${WEEKDAYS[sorted[0]! - 1]}–${WEEKDAYS[sorted.at(-1)! - 1]}`;
  return sorted.map((d) => WEEKDAYS[d - 1]).join(", ");
}

/** "Mon 5 Jan 2026, 15:00–15:30 (Europe/Lisbon)"; a slot past midnight names both days. */
export function formatSlot(start: number, end: number, timezone: string): string {
  const a = Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(timezone);
  const b = Temporal.Instant.fromEpochMilliseconds(end).toZonedDateTimeISO(timezone);
  const sameDay = a.toPlainDate().equals(b.toPlainDate());
  const until = sameDay ? clock(b.toPlainTime()) : `${day(b.toPlainDate())}, ${clock(b.toPlainTime())}`;
  return `${day(a.toPlainDate())}, ${clock(a.toPlainTime())}${sameDay ? "–" : " – "}${until} (${timezone})`;
}

/**
 * The window in words: "Mon 5 Jan 2026, 15:00 (Europe/Lisbon)",
 * "Tue 1 Dec 2026 – Mon 14 Dec 2026 (Tue–Thu), 14:00–17:00 (Europe/Lisbon)".
 */
export function describeWhen(when: TWhen): string {
  const first = Temporal.PlainDate.from(when.start_date);
  const last = Temporal.PlainDate.from(when.end_date);
  const days = first.equals(last) ? day(first) : `${day(first)} – ${day(last)}${when.weekdays ? ` (${weekdayList(when.weekdays)})` : ""}`;
  const times = when.exact_start ? when.from_time : `${when.from_time}–${when.to_time}`;
  return `${days}, ${times} (${when.timezone})`;
}
