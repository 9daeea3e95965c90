import { z } from "zod";

/**
 * When a meeting may happen, as structured data: resolved once from what the person typed
 * (relative to the moment they asked, in the conversation's timezone) and carried unchanged in
 * the job's slots to the tool that books it. Dates and times are wall-clock values in
 * `timezone`; the tool turns them into instants with the zone rules of the day in question.
 */
export const ZPlainDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD");
export const ZWallTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected HH:MM (24-hour)");

export const ZWhen = z.object({
  /** IANA zone the dates and times below are read in. */
  timezone: z.string().min(1).max(64),
  /** First and last candidate day (inclusive), local to `timezone`. */
  start_date: ZPlainDate,
  end_date: ZPlainDate,
  /** ISO weekdays allowed (1 = Monday … 7 = Sunday); absent means every day in the range. */
  weekdays: z.array(z.number().int().min(1).max(7)).min(1).max(7).optional(),
  /** Daily window, local wall clock; a meeting starts at or after `from_time` and ends by `to_time`. */
  from_time: ZWallTime,
  to_time: ZWallTime,
  /** The person named a start time ("at 3pm"): book exactly that or nothing. */
  exact_start: z.boolean(),
  /** The instant the request was read, the reference for "tomorrow" and "next Tuesday". */
  asked_at: z.string().min(1).max(40),
  /** The words it was read from, for showing back to the person. */
  source: z.string().min(1).max(300),
});
export type TWhen = z.infer<typeof ZWhen>;
