import { AppError } from "../../shared/errors.js";
import { CALENDAR_TOOL, MAIL_TOOL } from "../job-drafts.js";
import type { InviteAttendee, JobSlots, JobView, MeetingChange } from "../job-machine.js";
import type { ProposalSpec } from "../job-proposals.js";
import { inviteAttendees } from "../intake/meeting-intake.js";
import * as copy from "../narrator.js";
import { words } from "../speak.js";
import {
  CANCEL_TOOL,
  type ChangeInviteOutput,
  DECLINE_COUNTER_TOOL,
  MOVE_TOOL,
} from "../tools/calendar-change-invite.js";
import type { CreateInviteOutput } from "../tools/calendar-create-invite.js";
import { Temporal } from "temporal-polyfill";
import type { TWhen } from "../../../contracts/when.js";
import { describeWhen, formatSlot } from "../when/index.js";
import type { BookedMeeting, DecideContext } from "./model.js";

/**
 * Moving and cancelling a booked meeting. A completed job is final, so a change is a follow-up
 * job (parent_job_id) under approval whose tool writes the next version of the same event
 * (`calendar.move_invite` / `calendar.cancel_invite`) and whose email step sends it (REQUEST
 * or CANCEL). Every version is a tool result in the ledger: the latest one says where the
 * meeting stands, and the card words come from it and from the mail.send result.
 */

const VERSION_TOOLS = new Set([CALENDAR_TOOL, MOVE_TOOL, CANCEL_TOOL]);
/** Tools whose output a meeting job's cards and email speak of: the versions, and a DECLINECOUNTER (no new version). */
const OUTPUT_TOOLS = new Set([...VERSION_TOOLS, DECLINE_COUNTER_TOOL]);

/** The version of the meeting this job wrote, if it wrote one. */
export function bookedOf(job: JobView): BookedMeeting | undefined {
  const last = [...job.tools]
    .reverse()
    .find((t) => VERSION_TOOLS.has(t.tool_name) && t.status === "success" && t.output);
  if (!last?.output) return undefined;
  const o = last.output as CreateInviteOutput & Partial<ChangeInviteOutput>;
  return {
    job_id: job.job_id,
    event_uid: o.event_uid,
    sequence: o.sequence ?? 0,
    artifact_id: o.invite_artifact_id,
    scheduled_time: o.scheduled_time,
    meeting: o.meeting,
    cancelled: o.change === "cancel",
    mailed: job.tools.some((t) => t.tool_name === MAIL_TOOL && t.status === "success"),
  };
}

/** The calendar tool's output the job's cards speak of: the invite, or the change it made. */
export function versionOutput(job: JobView): (CreateInviteOutput & Partial<ChangeInviteOutput>) | undefined {
  const last = [...job.tools].reverse().find((t) => OUTPUT_TOOLS.has(t.tool_name) && t.status === "success");
  return last?.output as (CreateInviteOutput & Partial<ChangeInviteOutput>) | undefined;
}

/** The artifacts of that output (the .ics the card offers). */
export const versionArtifacts = (job: JobView) =>
  [...job.tools].reverse().find((t) => OUTPUT_TOOLS.has(t.tool_name) && t.status === "success")?.artifacts ?? [];

/** A finished meeting whose invitation went out and which is not cancelled: Move… and Cancel meeting apply. */
export function isChangeable(job: JobView): boolean {
  const b = bookedOf(job);
  return job.kind === "schedule_meeting" && job.state === "completed" && !!b && b.mailed && !b.cancelled;
}

/** The tool a meeting job runs: the invite, or the change its slots name. */
export const meetingToolOf = (slots: JobSlots) =>
  slots.change?.kind === "move"
    ? MOVE_TOOL
    : slots.change?.kind === "cancel"
      ? CANCEL_TOOL
      : slots.change?.kind === "keep"
        ? DECLINE_COUNTER_TOOL
        : CALENDAR_TOOL;

/** The change tool's input, from the change the job's slots recorded. */
export function changeInput(job: JobView, ctx: DecideContext) {
  const ch = job.slots.change!;
  const base = {
    event_uid: ch.event_uid,
    sequence: ch.sequence,
    from_artifact_id: ch.from_artifact_id,
    previous: ch.previous,
    meeting: ch.meeting,
    attendees: inviteAttendees(job.slots, job.slots.requested_by ? ctx.profileOf(job.slots.requested_by) : undefined),
  };
  if (ch.kind === "cancel") return base;
  if (ch.kind === "keep") return { ...base, ...(ch.counter ? { counter: ch.counter } : {}) };
  const minutes = Math.round((Date.parse(ch.previous.end) - Date.parse(ch.previous.start)) / 60_000);
  return { ...base, when: job.slots.when, duration_minutes: job.slots.duration_minutes ?? minutes };
}

/**
 * The follow-up job that changes `version` (the meeting's latest version, which `job` or a
 * later change of it wrote): proposed for approval, with the parent's people and place.
 */
export function changeSpec(
  job: JobView,
  version: BookedMeeting,
  kind: MeetingChange["kind"],
  asked: { when?: JobSlots["when"] | undefined; reply_event_id?: string | undefined; attendees?: InviteAttendee[] },
): ProposalSpec {
  const t = words(job.slots.locale);
  if (version.cancelled)
    throw new AppError("CONFLICT", copy.changeRefusal("alreadyCancelled", t), { job_id: version.job_id });
  // Accept new time / Keep original answer one recorded counter-proposal, and take its time from it.
  const reply = asked.reply_event_id
    ? job.replies?.find((r) => r.event_id === asked.reply_event_id && r.answer === "counter" && r.proposed)
    : undefined;
  if (asked.reply_event_id && !reply)
    throw new AppError("CONFLICT", copy.changeRefusal("noCounter", t), { job_id: job.job_id });
  const proposed = reply?.proposed;
  const when = proposed ? whenOf(proposed, job.slots.timezone ?? proposed.timezone) : asked.when;
  if (kind === "keep" && !reply)
    throw new AppError("CONFLICT", copy.changeRefusal("noCounter", t), { job_id: job.job_id });
  const countered = reply ? asked.attendees?.find((a) => a.email_hash === reply.attendee.email_hash) : undefined;
  if (kind === "keep" && !countered)
    throw new AppError("CONFLICT", copy.changeRefusal("noCounter", t), { job_id: job.job_id });
  if (kind === "move" && !when)
    throw new AppError("INVALID_INPUT", copy.changeRefusal("needTime", t), {
      fields: { time_window: copy.changeRefusal("needTime", t) },
    });
  const { change: _old, when: _w, time_window: _tw, day_hint: _d, ...rest } = job.slots;
  const span = proposed ?? version.scheduled_time;
  const minutes = Math.round((Date.parse(span.end) - Date.parse(span.start)) / 60_000);
  const change: MeetingChange = {
    kind,
    event_uid: version.event_uid,
    // A DECLINECOUNTER answers the version as it is; a move or a cancel is the next version.
    sequence: kind === "keep" ? version.sequence : version.sequence + 1,
    of_job_id: version.job_id,
    from_artifact_id: version.artifact_id,
    previous: version.scheduled_time,
    meeting: version.meeting,
    ...(reply ? { reply_event_id: reply.event_id } : {}),
    ...(kind === "keep" && reply?.proposed && countered
      ? { counter: { attendee: countered, proposed: reply.proposed } }
      : {}),
  };
  const title = job.slots.title ?? job.title;
  const was = formatSlot(
    Date.parse(version.scheduled_time.start),
    Date.parse(version.scheduled_time.end),
    version.scheduled_time.timezone,
    job.slots.locale,
  );
  const slots: JobSlots = {
    ...rest,
    duration_minutes: minutes,
    change,
    ...(kind === "move" && when ? { when, time_window: when.source } : {}),
  };
  const said = copy.changeProposal(
    kind,
    {
      title,
      was,
      when: when ? describeWhen(when, job.slots.locale) : undefined,
      name: (kind === "keep" ? countered?.name : undefined) ?? job.slots.attendee_name,
      of_job: version.job_id,
    },
    t,
  );
  return {
    ...said,
    kind: "schedule_meeting",
    slots,
    parent_job_id: job.job_id,
  };
}

export const isChangeOutput = (o: unknown): o is ChangeInviteOutput =>
  typeof o === "object" && o !== null && "change" in o;

/** An exact proposed time as the structured window the move tool books: that start, in `timezone`. */
function whenOf(slot: { start: string; end: string }, timezone: string): TWhen {
  const a = Temporal.Instant.from(slot.start).toZonedDateTimeISO(timezone);
  const b = Temporal.Instant.from(slot.end).toZonedDateTimeISO(timezone);
  const hm = (z: Temporal.ZonedDateTime) => z.toPlainTime().toString({ smallestUnit: "minute" });
  const from = hm(a);
  const to = a.toPlainDate().equals(b.toPlainDate()) ? hm(b) : "23:59";
  return {
    timezone,
    start_date: a.toPlainDate().toString(),
    end_date: a.toPlainDate().toString(),
    from_time: from,
    to_time: to > from ? to : "23:59",
    exact_start: true,
    asked_at: slot.start,
    source: formatSlot(Date.parse(slot.start), Date.parse(slot.end), timezone),
  };
}
