import ICAL from "ical.js";
import { z } from "zod";
import type { TArtifactRef } from "../../../contracts/cards.js";
import { ZWhen } from "../../../contracts/when.js";
import type { ArtifactStore } from "../artifact-store.js";
import type { CalDavCalendar } from "../calendar/index.js";
import { letterHash } from "../letter-hash.js";
import type { Vault } from "../vault/vault.js";
import { describeWhen, formatSlot, pickSlot, windowBounds } from "../when/index.js";
import { MEETING_TYPES } from "./meeting-rooms.js";
import { ToolFailure, type ToolDefinition } from "./tool.js";

export const MOVE_TOOL = "calendar.move_invite";
export const CANCEL_TOOL = "calendar.cancel_invite";
export const DECLINE_COUNTER_TOOL = "calendar.decline_counter";

const ZSlot = z.object({ start: z.string(), end: z.string(), timezone: z.string() });
const ZMeeting = z.object({
  type: z.enum(MEETING_TYPES),
  label: z.string(),
  url: z.string().optional(),
  pasted: z.boolean(),
});
const ZAttendeeRef = z.object({
  name: z.string().min(1).max(120),
  vault_ref: z.string().startsWith("vault_ref:"),
  email_redacted: z.string(),
  email_hash: z.string(),
});

/** The meeting as it stands (the last version written), which a move or a cancel replaces. */
const ZChangeBase = z.object({
  event_uid: z.string().min(1).max(200),
  /** The SEQUENCE this version carries: one more than the version it replaces (a DECLINECOUNTER: the same). */
  sequence: z.number().int().min(0).max(10_000),
  /** The .ics of the version it replaces (an artifact of this tenant), read to keep every other line. */
  from_artifact_id: z.string().min(1).max(128),
  previous: ZSlot,
  meeting: ZMeeting,
  attendees: z.array(ZAttendeeRef).min(1).max(20),
});
const ZMoveInput = ZChangeBase.extend({ when: ZWhen, duration_minutes: z.number().int().min(5).max(480) });
const ZCancelInput = ZChangeBase;
/** Keep original: the invitee who proposed another time, and the time they proposed. */
const ZDeclineInput = ZChangeBase.extend({ counter: z.object({ attendee: ZAttendeeRef, proposed: ZSlot }) });
type MoveInput = z.infer<typeof ZMoveInput>;
type CancelInput = z.infer<typeof ZCancelInput>;
type DeclineInput = z.infer<typeof ZDeclineInput>;

const ZCalendarFact = z.object({
  written: z.boolean(),
  removed: z.boolean().optional(),
  name: z.string().optional(),
  reason: z.enum(["not_configured", "unchanged"]).optional(),
});

/** What happened, and only that; shaped like the invite tool's output so the email step reads it the same way. */
const ZChangeOutput = z.object({
  change: z.enum(["move", "cancel", "keep"]),
  event_uid: z.string(),
  sequence: z.number().int(),
  scheduled_time: ZSlot,
  previous_time: ZSlot,
  meeting: ZMeeting,
  calendar: ZCalendarFact,
  invite_artifact_id: z.string(),
  invite_url: z.string(),
  attendees_count: z.number().int(),
});
export type ChangeInviteOutput = z.infer<typeof ZChangeOutput>;

interface ChangeToolDeps {
  artifacts: ArtifactStore;
  calendar?: CalDavCalendar;
  /** Resolves an attendee's address (the invitee a DECLINECOUNTER answers). */
  vault?: Vault;
}

const crlf = (s: string) => (s.endsWith("\r\n") ? s : `${s}\r\n`);

/** The version being replaced, as ical.js reads it; its METHOD, SEQUENCE, times and answers are set by the caller. */
function readPrevious(deps: ChangeToolDeps, tenantId: string, i: z.infer<typeof ZChangeBase>) {
  const file = deps.artifacts.get(tenantId, i.from_artifact_id);
  if (!file)
    throw new ToolFailure("INVALID_INPUT", "The meeting's invitation file is gone, so it cannot be changed from here.");
  try {
    const cal = new ICAL.Component(ICAL.parse(file.bytes.toString("utf8")));
    const vevent = cal
      .getAllSubcomponents("vevent")
      .find((v) => String(v.getFirstPropertyValue("uid")) === i.event_uid);
    if (!vevent) throw new Error("no such event");
    return { cal, vevent };
  } catch {
    throw new ToolFailure("INVALID_INPUT", "The meeting's invitation file could not be read.");
  }
}

function setMethod(cal: InstanceType<typeof ICAL.Component>, method: string | null): void {
  cal.removeAllProperties("method");
  if (method) cal.addPropertyWithValue("method", method);
}

function stamp(vevent: InstanceType<typeof ICAL.Component>, name: string, ms: number): void {
  vevent.updatePropertyWithValue(name, ICAL.Time.fromJSDate(new Date(ms), true));
}

const ICS_TITLES: Record<string, string> = {
  "cancel.ics": "Cancellation (.ics)",
  "decline.ics": "Answer to the proposed time (.ics)",
};

/** Deterministic per job: a retry rewrites the same file instead of leaving a second one. */
function saveIcs(
  deps: ChangeToolDeps,
  ctx: { tenant_id: string; job_id: string; idempotency_key: string },
  filename: string,
  ics: string,
  refs: string[],
) {
  const artifactId = `art_${letterHash(`ics|${ctx.tenant_id}|${ctx.idempotency_key}`, 20)}`;
  const saved = deps.artifacts.save({
    artifact_id: artifactId,
    tenant_id: ctx.tenant_id,
    job_id: ctx.job_id,
    filename,
    mime_type: "text/calendar",
    bytes: Buffer.from(ics, "utf8"),
    vault_refs: refs,
  });
  const url = `/v1/artifacts/${artifactId}`;
  const ref: TArtifactRef = {
    artifact_id: artifactId,
    kind: "file",
    title: ICS_TITLES[filename] ?? "Calendar invite (.ics)",
    url,
    mime_type: "text/calendar",
    size_bytes: saved.size_bytes,
  };
  return { artifactId, url, ref };
}

const sanitized = (i: z.infer<typeof ZChangeBase>, extra: Record<string, unknown>, calendar: boolean) => ({
  inputs: {
    event_uid: i.event_uid,
    sequence: i.sequence,
    from_artifact_id: i.from_artifact_id,
    previous: i.previous,
    attendees: i.attendees.map((a) => ({
      label: a.name,
      email_redacted: a.email_redacted,
      email_hash: a.email_hash,
      email_ref: a.vault_ref,
    })),
    calendar: calendar ? "caldav" : "none",
    provider: calendar ? "caldav" : "local",
    ...extra,
  },
  redactions_applied: ["email_redacted"],
  hashes_applied: ["email_hash"],
});

/**
 * A change tool's answer: what changed and the .ics the email step sends; the event, its
 * version and the time it had are the input's.
 */
function changed(
  i: z.infer<typeof ZChangeBase>,
  file: ReturnType<typeof saveIcs>,
  what: Pick<ChangeInviteOutput, "change" | "scheduled_time" | "calendar" | "attendees_count">,
) {
  const output: ChangeInviteOutput = {
    ...what,
    event_uid: i.event_uid,
    sequence: i.sequence,
    previous_time: i.previous,
    meeting: i.meeting,
    invite_artifact_id: file.artifactId,
    invite_url: file.url,
  };
  return { ok: true as const, output, artifacts: [file.ref] };
}

/**
 * `calendar.move_invite`: the same event (same UID) at a new time, as RFC 5546 asks of an
 * organizer: SEQUENCE one higher, DTSTAMP now, every attendee asked again (PARTSTAT
 * NEEDS-ACTION, RSVP). Writes the new version over the organizer's calendar event when a
 * calendar is connected and saves it as the .ics the email step sends (METHOD:REQUEST).
 */
export function createMoveInviteTool(deps: ChangeToolDeps): ToolDefinition<MoveInput> {
  return {
    name: MOVE_TOOL,
    version: "v1",
    description:
      "Move a booked meeting to another time: the same event with a higher SEQUENCE, rewritten in the organizer's calendar and saved as the invite to send again",
    side_effects: true,
    input: ZMoveInput,
    output: ZChangeOutput,
    purpose: (i) => `Move the meeting to ${describeWhen(i.when)}`,
    providerOf: () => (deps.calendar ? "caldav" : "local"),
    sanitize: (i) =>
      sanitized(
        i,
        { window: i.when, timezone: i.when.timezone, duration_minutes: i.duration_minutes },
        Boolean(deps.calendar),
      ),
    async run(i, ctx) {
      const prevStart = Date.parse(i.previous.start);
      const prevEnd = Date.parse(i.previous.end);
      const bounds = windowBounds(i.when);
      // The meeting's own time is not in its way.
      const busy = deps.calendar
        ? (await deps.calendar.busy(bounds.start, bounds.end)).filter(
            (b) => !(b.start === prevStart && b.end === prevEnd),
          )
        : [];
      const slot = pickSlot(i.when, { durationMinutes: i.duration_minutes, now: ctx.now, busy });
      if (!slot) {
        const why = i.when.exact_start
          ? "That time is taken or has already passed"
          : "No free time is left in that window";
        throw new ToolFailure("INVALID_INPUT", `${why} (${describeWhen(i.when)}). Please give another day or time.`);
      }
      if (slot.start === prevStart && slot.end === prevEnd)
        throw new ToolFailure(
          "INVALID_INPUT",
          `The meeting is already at ${formatSlot(slot.start, slot.end, i.previous.timezone)}.`,
        );
      const { cal, vevent } = readPrevious(deps, ctx.tenant_id, i);
      stamp(vevent, "dtstart", slot.start);
      stamp(vevent, "dtend", slot.end);
      stamp(vevent, "dtstamp", ctx.now);
      vevent.updatePropertyWithValue("sequence", i.sequence);
      vevent.removeAllProperties("status");
      for (const a of vevent.getAllProperties("attendee")) {
        a.setParameter("partstat", "NEEDS-ACTION");
        a.setParameter("rsvp", "TRUE");
      }
      setMethod(cal, null);
      const stored = crlf(cal.toString());
      let calendar: ChangeInviteOutput["calendar"] = { written: false, reason: "not_configured" };
      if (deps.calendar) {
        const now = await deps.calendar.get(i.event_uid);
        if (now) await deps.calendar.replace(i.event_uid, stored, now.etag);
        else await deps.calendar.put(i.event_uid, stored);
        calendar = { written: true, name: (await deps.calendar.describe()).displayName };
      }
      setMethod(cal, "REQUEST");
      const file = saveIcs(
        deps,
        ctx,
        "invite.ics",
        crlf(cal.toString()),
        i.attendees.map((a) => a.vault_ref),
      );
      return changed(i, file, {
        change: "move",
        scheduled_time: {
          start: new Date(slot.start).toISOString(),
          end: new Date(slot.end).toISOString(),
          timezone: i.when.timezone,
        },
        calendar,
        attendees_count: i.attendees.length,
      });
    },
  };
}

/**
 * `calendar.cancel_invite`: the organizer's cancellation (RFC 5546 CANCEL): the same UID,
 * SEQUENCE one higher, STATUS:CANCELLED, saved as the .ics the email step sends; the event is
 * deleted from the organizer's calendar when one is connected.
 */
export function createCancelInviteTool(deps: ChangeToolDeps): ToolDefinition<CancelInput> {
  return {
    name: CANCEL_TOOL,
    version: "v1",
    description:
      "Cancel a booked meeting: a CANCEL for the same event with a higher SEQUENCE, and the event removed from the organizer's calendar",
    side_effects: true,
    input: ZCancelInput,
    output: ZChangeOutput,
    purpose: (i) =>
      `Cancel the meeting of ${formatSlot(Date.parse(i.previous.start), Date.parse(i.previous.end), i.previous.timezone)}`,
    providerOf: () => (deps.calendar ? "caldav" : "local"),
    sanitize: (i) => sanitized(i, {}, Boolean(deps.calendar)),
    async run(i, ctx) {
      const { cal, vevent } = readPrevious(deps, ctx.tenant_id, i);
      stamp(vevent, "dtstamp", ctx.now);
      vevent.updatePropertyWithValue("sequence", i.sequence);
      vevent.updatePropertyWithValue("status", "CANCELLED");
      for (const a of vevent.getAllProperties("attendee")) a.removeParameter("rsvp");
      setMethod(cal, "CANCEL");
      const file = saveIcs(
        deps,
        ctx,
        "cancel.ics",
        crlf(cal.toString()),
        i.attendees.map((a) => a.vault_ref),
      );
      let calendar: ChangeInviteOutput["calendar"] = { written: false, reason: "not_configured" };
      if (deps.calendar) {
        const removed = await deps.calendar.remove(i.event_uid);
        calendar = { written: true, removed, name: (await deps.calendar.describe()).displayName };
      }
      return changed(i, file, {
        change: "cancel",
        scheduled_time: i.previous,
        calendar,
        attendees_count: i.attendees.length,
      });
    },
  };
}

/**
 * `calendar.decline_counter`: the organizer keeps the meeting as it is against an invitee's
 * counter-proposal (RFC 5546 DECLINECOUNTER): the same UID and SEQUENCE, addressed to that
 * invitee only, saved as the .ics the email step sends. The calendar is not touched.
 */
export function createDeclineCounterTool(deps: ChangeToolDeps): ToolDefinition<DeclineInput> {
  return {
    name: DECLINE_COUNTER_TOOL,
    version: "v1",
    description:
      "Keep a booked meeting's time against an invitee's counter-proposal: a DECLINECOUNTER for the same event, to send to that invitee",
    side_effects: true,
    input: ZDeclineInput,
    output: ZChangeOutput,
    purpose: (i) =>
      `Tell ${i.counter.attendee.name} the meeting stays at ${formatSlot(Date.parse(i.previous.start), Date.parse(i.previous.end), i.previous.timezone)}`,
    providerOf: () => "local",
    sanitize: (i) => {
      const base = sanitized(i, {}, false);
      const a = i.counter.attendee;
      return {
        ...base,
        inputs: {
          ...base.inputs,
          counter: {
            attendee: {
              label: a.name,
              email_redacted: a.email_redacted,
              email_hash: a.email_hash,
              email_ref: a.vault_ref,
            },
            proposed: i.counter.proposed,
          },
        },
      };
    },
    async run(i, ctx) {
      const { cal, vevent } = readPrevious(deps, ctx.tenant_id, i);
      stamp(vevent, "dtstamp", ctx.now);
      vevent.updatePropertyWithValue("sequence", i.sequence);
      // Only the invitee who proposed is answered.
      const email = deps.vault?.get(ctx.tenant_id, i.counter.attendee.vault_ref)?.trim().toLowerCase();
      if (!email)
        throw new ToolFailure("INVALID_INPUT", `The address for ${i.counter.attendee.name} is no longer available.`);
      for (const a of [...vevent.getAllProperties("attendee")]) {
        if (
          String(a.getFirstValue() ?? "")
            .replace(/^mailto:/i, "")
            .trim()
            .toLowerCase() === email
        )
          a.removeParameter("rsvp");
        else vevent.removeProperty(a);
      }
      setMethod(cal, "DECLINECOUNTER");
      const file = saveIcs(deps, ctx, "decline.ics", crlf(cal.toString()), [i.counter.attendee.vault_ref]);
      return changed(i, file, {
        change: "keep",
        scheduled_time: i.previous,
        calendar: { written: false, reason: "unchanged" },
        attendees_count: 1,
      });
    },
  };
}
