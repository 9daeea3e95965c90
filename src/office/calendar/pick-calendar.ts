import type { DAVCalendar } from "tsdav";
import { ToolFailure } from "../tools/tool.js";

/** A display name as a plain string: tsdav hands back an object for some XML shapes. */
export function displayNameOf(cal: DAVCalendar): string {
  if (typeof cal.displayName === "string" && cal.displayName.trim()) return cal.displayName.trim();
  const last = new URL(cal.url).pathname.split("/").filter(Boolean).pop();
  return last ? decodeURIComponent(last) : "calendar";
}

function pathOf(urlOrPath: string, base: string): string | undefined {
  try {
    const path = decodeURIComponent(new URL(urlOrPath, base).pathname);
    return path.endsWith("/") ? path : `${path}/`;
  } catch {
    return undefined;
  }
}

const holdsEvents = (cal: DAVCalendar) => !cal.components?.length || cal.components.includes("VEVENT");

/**
 * The calendar to use: the one whose URL/path or display name is `wanted` (an exact name wins
 * over a case-insensitive one), else the first calendar that holds events. Throws INVALID_INPUT
 * naming CALDAV_CALENDAR when nothing matches, since only configuration can fix it. A URL in
 * `wanted` is echoed by its path only, so credentials pasted into it never reach a message.
 */
export function pickCalendar(calendars: DAVCalendar[], wanted: string | undefined, base: string): DAVCalendar {
  const usable = calendars.filter(holdsEvents);
  const w = wanted?.trim();
  if (!w) {
    const first = usable[0];
    if (!first)
      throw new ToolFailure(
        "INVALID_INPUT",
        "The CalDAV account has no calendar for events. Create one, or set CALDAV_CALENDAR.",
      );
    return first;
  }
  const looksLikePath = w.includes("/");
  const found = looksLikePath
    ? usable.find((c) => pathOf(c.url, base) === pathOf(w, base))
    : (usable.find((c) => displayNameOf(c) === w) ??
      usable.find((c) => displayNameOf(c).toLowerCase() === w.toLowerCase()));
  if (found) return found;
  const shown = looksLikePath ? (pathOf(w, base) ?? "that path") : w;
  const names = usable.map((c) => `"${displayNameOf(c)}"`).join(", ");
  throw new ToolFailure(
    "INVALID_INPUT",
    `No calendar matches CALDAV_CALENDAR "${shown}". ${names ? `Calendars found: ${names}.` : "The account has no calendar for events."}`.slice(
      0,
      300,
    ),
  );
}
