import { z } from "zod";
import type { TArtifactRef } from "../../../contracts/cards.js";
import { ZWhen } from "../../../contracts/when.js";
import type { ArtifactStore } from "../artifact-store.js";
import type { CalDavCalendar } from "../calendar/index.js";
import { letterHash } from "../letter-hash.js";
import type { Vault } from "../vault/vault.js";
import { buildInviteIcs, describeWhen, pickSlot, windowBounds } from "../when/index.js";
import { meetingLabel, MEETING_TYPES, type MeetingRooms } from "./meeting-rooms.js";
import { ToolFailure, type ToolDefinition } from "./tool.js";

/** Runtime input: attendees and a pasted link are vault pointers plus their ledger-safe forms, never raw. */
const ZCreateInviteInput = z.object({
  title: z.string().min(1).max(120),
  duration_minutes: z.number().int().min(5).max(480),
  when: ZWhen,
  meeting: z.object({
    type: z.enum(MEETING_TYPES),
    label: z.string().max(60).optional(),
    url_ref: z.string().startsWith("vault_ref:").optional(),
  }),
  organizer: z.object({ name: z.string().min(1).max(120), entity_id: z.string().min(1) }),
  attendees: z
    .array(
      z.object({
        name: z.string().min(1).max(120),
        vault_ref: z.string().startsWith("vault_ref:"),
        email_redacted: z.string(),
        email_hash: z.string(),
      }),
    )
    .min(1)
    .max(20),
  notes_hint: z.string().max(300).optional(),
});
export type CreateInviteInput = z.infer<typeof ZCreateInviteInput>;

/** What happened, and only that: each field is a fact the cards may state. */
const ZCreateInviteOutput = z.object({
  event_uid: z.string(),
  scheduled_time: z.object({ start: z.string(), end: z.string(), timezone: z.string() }),
  meeting: z.object({
    type: z.enum(MEETING_TYPES),
    label: z.string(),
    url: z.string().optional(),
    pasted: z.boolean(),
  }),
  calendar: z.object({
    written: z.boolean(),
    created: z.boolean().optional(),
    name: z.string().optional(),
    reason: z.enum(["not_configured"]).optional(),
  }),
  invite_artifact_id: z.string(),
  invite_url: z.string(),
  attendees_count: z.number().int(),
});
export type CreateInviteOutput = z.infer<typeof ZCreateInviteOutput>;

export interface InviteToolDeps {
  vault: Vault;
  artifacts: ArtifactStore;
  rooms: MeetingRooms;
  /** The organizer's calendar; absent = events are not written to any calendar. */
  calendar?: CalDavCalendar;
  /** The address invites come from (MAIL_FROM); absent = the .ics names no organizer. */
  organizerAddress?: { name?: string; address: string };
}

/** The invite's UID: one per job, so a retry, the calendar and the email all name the same event. */
/** The event's UID, fixed per job so a retry or a resend updates one event; not address-shaped, so it never reads as PII. */
export const inviteUid = (idempotencyKey: string) => `logline-${letterHash(`uid|${idempotencyKey}`, 24)}`;

/**
 * `calendar.create_invite` v2: picks a free slot inside the structured window (the organizer's
 * calendar's busy times excluded when one is connected), names the meeting place (a Jitsi room we
 * name, the link the person pasted, phone, in person), writes the `.ics`, and puts the event in
 * the organizer's calendar when one is connected. It sends nothing: mailing is `mail.send`.
 */
export function createCalendarInviteTool(deps: InviteToolDeps): ToolDefinition<CreateInviteInput> {
  return {
    name: "calendar.create_invite",
    version: "v2",
    description:
      "Pick a free time in the requested window, create the calendar event (.ics) with its meeting place, and write it to the organizer's calendar when one is connected",
    side_effects: true,
    input: ZCreateInviteInput,
    output: ZCreateInviteOutput,
    purpose: (i) =>
      `Create a ${i.duration_minutes}-minute meeting (${meetingLabel(i.meeting.type, i.meeting.label)}) in ${describeWhen(i.when)}`,
    providerOf: () => (deps.calendar ? "caldav" : "local"),
    sanitize(i) {
      return {
        inputs: {
          window: i.when,
          timezone: i.when.timezone,
          duration_minutes: i.duration_minutes,
          attendees: i.attendees.map((a) => ({
            label: a.name,
            email_redacted: a.email_redacted,
            email_hash: a.email_hash,
            email_ref: a.vault_ref,
          })),
          meeting: {
            type: i.meeting.type,
            ...(i.meeting.label ? { label: i.meeting.label } : {}),
            ...(i.meeting.url_ref ? { url_ref: i.meeting.url_ref } : {}),
          },
          calendar: deps.calendar ? "caldav" : "none",
          provider: deps.calendar ? "caldav" : "local",
          title: i.title,
          ...(i.notes_hint ? { notes_hint: i.notes_hint } : {}),
        },
        redactions_applied: ["email_redacted"],
        hashes_applied: ["email_hash"],
      };
    },
    async run(i, ctx) {
      const bounds = windowBounds(i.when);
      const busy = deps.calendar ? await deps.calendar.busy(bounds.start, bounds.end) : [];
      const slot = pickSlot(i.when, { durationMinutes: i.duration_minutes, now: ctx.now, busy });
      if (!slot) {
        const why = i.when.exact_start
          ? "That time is taken or has already passed"
          : deps.calendar
            ? "Your calendar has no free time"
            : "No time is left";
        throw new ToolFailure("INVALID_INPUT", `${why} (${describeWhen(i.when)}). Please give another day or time.`);
      }
      const attendees = i.attendees.map((a) => {
        const email = deps.vault.get(ctx.tenant_id, a.vault_ref);
        if (!email)
          throw new ToolFailure(
            "INVALID_INPUT",
            `The address for ${a.name} is no longer available. Please provide it again.`,
          );
        return { name: a.name, email };
      });
      const pasted = i.meeting.url_ref ? deps.vault.get(ctx.tenant_id, i.meeting.url_ref) : undefined;
      if (i.meeting.type === "link" && !pasted)
        throw new ToolFailure(
          "INVALID_INPUT",
          "The meeting link you pasted is no longer available. Please paste it again.",
        );
      const url =
        i.meeting.type === "jitsi"
          ? deps.rooms.roomUrl(`${ctx.tenant_id}|${ctx.idempotency_key}`)
          : (pasted ?? undefined);
      const label = meetingLabel(i.meeting.type, i.meeting.label);
      const uid = inviteUid(ctx.idempotency_key);
      const base = {
        uid,
        stamp: ctx.now,
        start: slot.start,
        end: slot.end,
        timezone: i.when.timezone,
        summary: i.title,
        description: [url ? `Join: ${url}` : undefined, i.notes_hint].filter(Boolean).join("\n\n") || undefined,
        location:
          url ?? (i.meeting.type === "phone" ? "Phone" : i.meeting.type === "in_person" ? "In person" : undefined),
        ...(url ? { url } : {}),
        ...(deps.organizerAddress
          ? {
              organizer: { name: deps.organizerAddress.name ?? i.organizer.name, email: deps.organizerAddress.address },
            }
          : {}),
        attendees,
      };
      const calendar = deps.calendar
        ? await writeToCalendar(deps.calendar, uid, buildInviteIcs({ ...base, method: null }))
        : { written: false, reason: "not_configured" as const };
      const ics = buildInviteIcs({ ...base, method: deps.organizerAddress ? "REQUEST" : "PUBLISH" });
      // Deterministic per job: a retry rewrites the same file instead of leaving a second one.
      const artifactId = `art_${letterHash(`ics|${ctx.tenant_id}|${ctx.idempotency_key}`, 20)}`;
      const saved = deps.artifacts.save({
        artifact_id: artifactId,
        tenant_id: ctx.tenant_id,
        job_id: ctx.job_id,
        filename: "invite.ics",
        mime_type: "text/calendar",
        bytes: Buffer.from(ics, "utf8"),
        vault_refs: i.attendees.map((a) => a.vault_ref),
      });
      const inviteUrl = `/v1/artifacts/${artifactId}`;
      const artifacts: TArtifactRef[] = [
        {
          artifact_id: artifactId,
          kind: "file",
          title: "Calendar invite (.ics)",
          url: inviteUrl,
          mime_type: "text/calendar",
          size_bytes: saved.size_bytes,
        },
      ];
      // Only a room we named goes on the card as a link; a pasted link stays in the vault and the .ics.
      if (i.meeting.type === "jitsi" && url)
        artifacts.push({ artifact_id: `${artifactId}_room`, kind: "link", title: "Jitsi Meet room", url });
      const output: CreateInviteOutput = {
        event_uid: uid,
        scheduled_time: {
          start: new Date(slot.start).toISOString(),
          end: new Date(slot.end).toISOString(),
          timezone: i.when.timezone,
        },
        meeting: {
          type: i.meeting.type,
          label,
          ...(i.meeting.type === "jitsi" && url ? { url } : {}),
          pasted: i.meeting.type === "link",
        },
        calendar,
        invite_artifact_id: artifactId,
        invite_url: inviteUrl,
        attendees_count: attendees.length,
      };
      return { ok: true, output, artifacts };
    },
  };
}

async function writeToCalendar(
  calendar: CalDavCalendar,
  uid: string,
  ics: string,
): Promise<CreateInviteOutput["calendar"]> {
  const put = await calendar.put(uid, ics);
  const about = await calendar.describe();
  return { written: true, created: put.created, name: about.displayName };
}
/** A short name for a meeting place, for copy written before a tool ran (a proposal, a form). */
