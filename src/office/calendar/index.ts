/** The organizer's CalDAV calendar: free/busy lookup and idempotent event writes. */
export { createCalDavCalendar, type CalDavCalendar } from "./caldav-calendar.js";
