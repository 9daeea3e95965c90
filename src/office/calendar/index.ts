/** The organizer's CalDAV calendar: free/busy lookup and idempotent event writes. */
export { createCalDavCalendar, type CalDavCalendar, type CalDavCalendarOptions } from "./caldav-calendar.js";
export type { BusyInterval } from "./busy-intervals.js";
