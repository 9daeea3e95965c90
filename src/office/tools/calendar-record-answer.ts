import ICAL from "ical.js";
import { z } from "zod";
import type { CalDavCalendar } from "../calendar/index.js";
import type { Vault } from "../vault/vault.js";
import { ToolFailure, type ToolDefinition } from "./tool.js";

export const RECORD_ANSWER_TOOL = "calendar.record_answer";

const PARTSTATS = ["ACCEPTED", "DECLINED", "TENTATIVE"] as const;

const ZRecordAnswerInput = z.object({
  event_uid: z.string().min(1).max(200),
  attendee: z.object({
    name: z.string().min(1).max(120),
    vault_ref: z.string().startsWith("vault_ref:"),
    email_redacted: z.string(),
    email_hash: z.string(),
  }),
  partstat: z.enum(PARTSTATS),
});
type RecordAnswerInput = z.infer<typeof ZRecordAnswerInput>;

const ZRecordAnswerOutput = z.object({
  event_uid: z.string(),
  partstat: z.enum(PARTSTATS),
  calendar: z.object({ name: z.string() }),
});

/**
 * `calendar.record_answer`: an invitee answered; their ATTENDEE line in the organizer's calendar
 * event takes the answer as its PARTSTAT (RSVP cleared), so the calendar shows who comes. Reads
 * the stored event, changes that one parameter, and writes it back only if it did not change
 * meanwhile (If-Match). Writing the same answer again changes nothing new.
 */
export function createRecordAnswerTool(deps: {
  vault: Vault;
  calendar?: CalDavCalendar;
}): ToolDefinition<RecordAnswerInput> {
  return {
    name: RECORD_ANSWER_TOOL,
    version: "v1",
    description:
      "Write an invitee's answer (accepted, declined, tentative) to the meeting's event in the organizer's calendar",
    side_effects: true,
    input: ZRecordAnswerInput,
    output: ZRecordAnswerOutput,
    purpose: (i) => `Mark ${i.attendee.name} as ${i.partstat.toLowerCase()} in the calendar event`,
    providerOf: () => "caldav",
    sanitize(i) {
      return {
        inputs: {
          event_uid: i.event_uid,
          attendee: {
            label: i.attendee.name,
            email_redacted: i.attendee.email_redacted,
            email_hash: i.attendee.email_hash,
            email_ref: i.attendee.vault_ref,
          },
          partstat: i.partstat,
          provider: "caldav",
        },
        redactions_applied: ["email_redacted"],
        hashes_applied: ["email_hash"],
      };
    },
    async run(i, ctx) {
      const calendar = deps.calendar;
      if (!calendar) throw new ToolFailure("INVALID_INPUT", "No calendar is connected (CALDAV_URL).");
      const email = deps.vault.get(ctx.tenant_id, i.attendee.vault_ref);
      if (!email) throw new ToolFailure("INVALID_INPUT", `The address for ${i.attendee.name} is no longer available.`);
      const stored = await calendar.get(i.event_uid);
      if (!stored) throw new ToolFailure("INVALID_INPUT", "The meeting is no longer in the calendar.");
      let text: string;
      try {
        const cal = new ICAL.Component(ICAL.parse(stored.ics));
        const vevent =
          cal.getAllSubcomponents("vevent").find((v) => String(v.getFirstPropertyValue("uid")) === i.event_uid) ??
          cal.getFirstSubcomponent("vevent");
        const line = vevent?.getAllProperties("attendee").find(
          (a) =>
            String(a.getFirstValue() ?? "")
              .replace(/^mailto:/i, "")
              .trim()
              .toLowerCase() === email.trim().toLowerCase(),
        );
        if (!line)
          throw new ToolFailure("INVALID_INPUT", `${i.attendee.name} is not an attendee of the calendar event.`);
        line.setParameter("partstat", i.partstat);
        line.removeParameter("rsvp");
        text = cal.toString();
      } catch (err) {
        if (err instanceof ToolFailure) throw err;
        throw new ToolFailure("INVALID_INPUT", "The calendar event could not be read.");
      }
      await calendar.replace(i.event_uid, text.endsWith("\r\n") ? text : `${text}\r\n`, stored.etag);
      const about = await calendar.describe();
      return {
        ok: true,
        output: { event_uid: i.event_uid, partstat: i.partstat, calendar: { name: about.displayName } },
        artifacts: [],
      };
    },
  };
}
