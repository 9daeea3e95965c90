import { z } from "zod";
import { ConfigError, httpUrl } from "../../shared/env.js";

/** Office's calendar settings: the organizer's CalDAV calendar, where booked meetings are written. */

export const CALDAV_ENV = z.object({
  CALDAV_URL: httpUrl("CALDAV_URL").optional(),
  CALDAV_USERNAME: z.string().trim().min(1).optional(),
  CALDAV_PASSWORD: z.string().min(1).optional(),
  CALDAV_CALENDAR: z.string().trim().min(1).optional(),
});

type CalDavEnv = z.infer<typeof CALDAV_ENV>;

export interface CalDavConfig {
  /** The server's CalDAV root or principal URL (discovery starts there). */
  url: string;
  username: string;
  password: string;
  /** Which calendar: its display name or a path/URL; the first calendar when absent. */
  calendar?: string;
}

/** CalDAV settings: all three of URL, user name and password, or none. */
export function calDavSettings(e: CalDavEnv): CalDavConfig | undefined {
  if (!e.CALDAV_URL) {
    if (e.CALDAV_USERNAME || e.CALDAV_PASSWORD || e.CALDAV_CALENDAR)
      throw new ConfigError(
        "CALDAV_URL",
        "Invalid configuration: CALDAV_URL is required when CALDAV_USERNAME, CALDAV_PASSWORD or CALDAV_CALENDAR is set",
      );
    return undefined;
  }
  if (!e.CALDAV_USERNAME || !e.CALDAV_PASSWORD)
    throw new ConfigError(
      e.CALDAV_USERNAME ? "CALDAV_PASSWORD" : "CALDAV_USERNAME",
      "Invalid configuration: CALDAV_USERNAME and CALDAV_PASSWORD are required when CALDAV_URL is set",
    );
  return {
    url: e.CALDAV_URL,
    username: e.CALDAV_USERNAME,
    password: e.CALDAV_PASSWORD,
    ...(e.CALDAV_CALENDAR ? { calendar: e.CALDAV_CALENDAR } : {}),
  };
}
