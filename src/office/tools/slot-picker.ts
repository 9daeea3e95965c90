import { parseTimeWindow, type TimeWindow } from "../time-window.js";
import { localToUtc, utcToLocal } from "./tz.js";

export interface PickedSlot {
  startUtc: number;
  endUtc: number;
  /** Wall-clock start/end in the requested timezone, `YYYYMMDDTHHMMSS` (the .ics form). */
  localStart: string;
  localEnd: string;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const icsLocal = (tz: string, ms: number) => {
  const l = utcToLocal(tz, ms);
  return `${l.y}${pad(l.m)}${pad(l.d)}T${pad(l.hh)}${pad(l.mm)}00`;
};
const DEFAULT_FROM = 9 * 60;
const DEFAULT_TO = 17 * 60;
/** Nothing is booked sooner than this after now: an invite needs time to be read. */
const LEAD_MS = 60 * 60_000;
const STEP_MIN = 30;

/**
 * The first free-of-rules slot inside the window: deterministic given `nowMs`, so the same
 * request on the same clock always books the same time. Days are walked in the requested
 * timezone; with no days named it uses weekdays, with no hours it uses 09:00–17:00.
 */
export function pickSlot(input: { window: string; dayHint?: string; timezone: string; durationMinutes: number; nowMs: number }): PickedSlot | null {
  const w: TimeWindow = parseTimeWindow(`${input.window} ${input.dayHint ?? ""}`);
  const tz = input.timezone;
  const today = utcToLocal(tz, input.nowMs);
  const dayMs = 86_400_000;
  const todayUtcDate = Date.UTC(today.y, today.m - 1, today.d);
  const weekday = new Date(todayUtcDate).getUTCDay();

  let first = todayUtcDate;
  let last = todayUtcDate + 28 * dayMs;
  if (w.date) {
    let y = w.date.y || today.y;
    let at = Date.UTC(y, w.date.m - 1, w.date.d);
    if (!w.date.y && at < todayUtcDate) at = Date.UTC(++y, w.date.m - 1, w.date.d);
    first = last = at;
  } else if (w.day === "today") {
    last = first;
  } else if (w.day === "tomorrow") {
    first = last = todayUtcDate + dayMs;
  } else if (w.week === "next") {
    first = todayUtcDate + (((8 - weekday) % 7) || 7) * dayMs;
    last = first + 6 * dayMs;
  } else if (w.week === "this") {
    last = todayUtcDate + ((7 - weekday) % 7) * dayMs;
  }
  const days = w.weekdays?.length ? w.weekdays : w.day || w.date ? [0, 1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5];
  const from = w.fromMin ?? DEFAULT_FROM;
  const to = w.toMin ?? DEFAULT_TO;
  const dur = Math.max(5, input.durationMinutes);

  for (let day = first; day <= last; day += dayMs) {
    const d = new Date(day);
    if (!days.includes(d.getUTCDay())) continue;
    for (let m = from; m + dur <= to; m += STEP_MIN) {
      const start = localToUtc(tz, { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate(), hh: Math.floor(m / 60), mm: m % 60 });
      if (start < input.nowMs + LEAD_MS) continue;
      const end = start + dur * 60_000;
      return { startUtc: start, endUtc: end, localStart: icsLocal(tz, start), localEnd: icsLocal(tz, end) };
    }
  }
  return null;
}
