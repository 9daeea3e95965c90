import { Temporal } from "temporal-polyfill";
import { LIMITS } from "../../../contracts/facts.js";
import { AppError } from "../../shared/errors.js";

/** The zone a person's times are read in when their profile names none. */
export const FALLBACK_TIME_ZONE = "UTC";

/** Offset at the end of an ISO date-time: `Z`, `+hh:mm` or `-hh:mm` (fixed width: nothing can backtrack). */
const hasOffset = (s: string) => s.endsWith("Z") || s.endsWith("z") || /[+-]\d\d:\d\d$/.test(s);

/**
 * When a scheduled message or reminder is due, in epoch ms: an instant with its offset as it is,
 * or a wall-clock time read in the person's zone (Temporal; a time that does not exist there,
 * in a spring-forward gap, moves later, as a wall clock does). Refused, in the standard error
 * shape: what is not a date-time, a time not in the future, one past LIMITS.scheduleDays.
 */
export function parseSendAt(input: string, timeZone: string, nowMs: number, field = "send_at"): number {
  let ms: number;
  try {
    ms = hasOffset(input)
      ? Temporal.Instant.from(input).epochMilliseconds
      : Temporal.PlainDateTime.from(input).toZonedDateTime(timeZone, { disambiguation: "compatible" })
          .epochMilliseconds;
  } catch {
    throw new AppError("VALIDATION_ERROR", "send_at is not a date and time (2026-11-28T09:00, or with an offset)", {
      field,
    });
  }
  if (ms <= nowMs) throw new AppError("VALIDATION_ERROR", "send_at is not in the future", { field });
  if (ms > nowMs + LIMITS.scheduleDays * 86_400_000)
    throw new AppError("VALIDATION_ERROR", `send_at is more than ${LIMITS.scheduleDays} days ahead`, { field });
  return ms;
}
