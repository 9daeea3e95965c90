import type { TRedactedValue } from "../../contracts/index.js";
import {
  type BaseSlots,
  evolve as evolveJob,
  foldJob as foldEvents,
  type JobEvent,
  type JobView as KernelJobView,
} from "../job/view.js";
import type { SlotValues } from "./planner/planner.js";
import { type MeetingPlace, meetingType } from "./tools/meeting-rooms.js";

/**
 * Office's binding of the job kernel (`src/job/`): the slots a meeting, handoff or tool job
 * remembers, and which of a meeting's inputs are still missing. The job itself is the kernel's
 * view, folded from its ledger events only (no Office table holds job state); the rules for
 * every transition are in `src/job/transitions.ts`.
 */

export type JobSlots = BaseSlots &
  Omit<SlotValues, "attendee_email" | "meeting_url"> & {
    attendee_email?: TRedactedValue;
    /** A pasted meeting link lives in the vault; the ledger keeps "Zoom link" and the pointer. */
    meeting_url?: TRedactedValue;
    notes?: string;
    /** The language the job started in (its cards stay in it); absent means English. */
    locale?: string;
    /** A handoff job: who asked, and what (in their words, PII already vaulted). */
    requested_by?: string;
    request?: string;
    /** A tool job (MCP): the tool, its arguments as the ledger keeps them, and the vault entry of the exact ones. */
    tool_call?: {
      name: string;
      server: string;
      args: Record<string, unknown>;
      args_ref: string;
      purpose: string;
      locale?: string;
    };
    /** The person who asked wants a reminder this many minutes before the meeting starts. */
    remind_minutes?: number;
    /** A follow-up that moves or cancels a booked meeting: the version it replaces. */
    change?: MeetingChange;
  };

/** A meeting job's slots as Office keeps them: the kernel's view, bound to these. */
export type JobView = KernelJobView<JobSlots>;

/** One event applied to the job (the kernel's `evolve`, typed with Office's slots). */
export const evolve: (state: JobView | null, e: JobEvent) => JobView | null = evolveJob;

/** The job folded from its events: what restart, trajectory and "reconstruct by job_id" use. */
export function foldJob(events: readonly JobEvent[]): JobView | null {
  return foldEvents<JobSlots>(events);
}

/** Required inputs of a meeting job that are still missing, in the seed's order. */
export type MeetingInput = "attendee_email" | "time_window" | "timezone" | "meeting_link" | "meeting_url";

export function missingMeetingInputs(slots: JobSlots): MeetingInput[] {
  const out: MeetingInput[] = [];
  if (!slots.attendee_email) out.push("attendee_email");
  // A cancellation or a kept time needs no new time; a move carries its new one.
  if (!slots.when && !slots.time_window && slots.change?.kind !== "cancel" && slots.change?.kind !== "keep")
    out.push("time_window");
  if (!slots.timezone) out.push("timezone");
  if (!slots.meeting_link) out.push("meeting_link");
  else if (meetingType(slots.meeting_link) === "link" && !slots.meeting_url) out.push("meeting_url");
  return out;
}

/** Someone a meeting invites: a vault pointer to the address, and its ledger-safe forms. */
export interface InviteAttendee {
  name: string;
  vault_ref: string;
  email_redacted: string;
  email_hash: string;
}

/** The meeting a change job changes, as its version stood when the change was asked for. */
export interface MeetingChange {
  kind: "move" | "cancel" | "keep";
  event_uid: string;
  sequence: number;
  of_job_id: string;
  from_artifact_id: string;
  previous: { start: string; end: string; timezone: string };
  meeting: MeetingPlace;
  /** The invitee's counter-proposal this change answers (Accept new time / Keep original). */
  reply_event_id?: string;
  /** Keep original: who proposed another time, and which. */
  counter?: { attendee: InviteAttendee; proposed: { start: string; end: string; timezone: string } };
}
