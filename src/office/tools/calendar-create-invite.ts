import { z } from "zod";
import type { TArtifactRef } from "../../../contracts/cards.js";
import type { IdGenerator } from "../../shared/ids.js";
import type { ArtifactStore } from "../artifact-store.js";
import type { Vault } from "../vault.js";
import { PROVIDER_OF, type CalendarProvider, type MeetingLinkType } from "./calendar-provider.js";
import { writeIcs } from "./ics.js";
import { pickSlot } from "./slot-picker.js";
import { ToolFailure, type ToolDefinition } from "./tool.js";
import { isValidTimeZone } from "./tz.js";

const ZLink = z.enum(["google_meet", "zoom", "teams", "phone", "in_person"]);

/** Runtime input: attendees are vault pointers plus their ledger-safe forms, never raw. */
export const ZCreateInviteInput = z.object({
  title: z.string().min(1).max(120),
  duration_minutes: z.number().int().min(5).max(480),
  time_window: z.string().min(1).max(300),
  day_hint: z.string().max(60).optional(),
  timezone: z.string().refine(isValidTimeZone, "unknown timezone"),
  meeting_link: ZLink,
  organizer: z.object({ name: z.string().min(1).max(120), entity_id: z.string().min(1) }),
  attendees: z
    .array(z.object({ name: z.string().min(1).max(120), vault_ref: z.string().startsWith("vault_ref:"), email_redacted: z.string(), email_hash: z.string() }))
    .min(1)
    .max(20),
  notes_hint: z.string().max(300).optional(),
});
export type CreateInviteInput = z.infer<typeof ZCreateInviteInput>;

export const ZCreateInviteOutput = z.object({
  calendar_provider: z.string(),
  event_id: z.string(),
  meeting_link: z.string().optional(),
  invite_url: z.string(),
  scheduled_time: z.object({ start: z.string(), end: z.string(), timezone: z.string() }),
  attendees_count: z.number().int(),
  outbox_id: z.string(),
});

const LINK_LABEL: Record<MeetingLinkType, string> = { google_meet: "Google Meet", zoom: "Zoom", teams: "Teams", phone: "Phone", in_person: "In person" };

export function linkLabel(t: string): string {
  return LINK_LABEL[t as MeetingLinkType] ?? t;
}

/**
 * `calendar.create_invite` v1: picks a slot in the window, asks the provider for the event and
 * link, writes the `.ics`, and queues the invite in the tenant outbox. The attendee's address
 * is read from the vault here and nowhere else.
 */
export function createCalendarInviteTool(deps: { provider: CalendarProvider; vault: Vault; artifacts: ArtifactStore; ids: IdGenerator }): ToolDefinition<CreateInviteInput> {
  return {
    name: "calendar.create_invite",
    version: "v1",
    description: "Create a calendar event with a meeting link and send the invite (.ics)",
    side_effects: true,
    input: ZCreateInviteInput,
    output: ZCreateInviteOutput,
    purpose: (i) => `Create a ${i.duration_minutes}-minute meeting invite with ${LINK_LABEL[i.meeting_link]}`,
    providerOf: (i) => deps.provider.providerFor?.(i.meeting_link) ?? PROVIDER_OF[i.meeting_link],
    sanitize(i) {
      return {
        inputs: {
          start_window: i.time_window,
          ...(i.day_hint ? { day_hint: i.day_hint } : {}),
          timezone: i.timezone,
          duration_minutes: i.duration_minutes,
          attendees: i.attendees.map((a) => ({ label: a.name, email_redacted: a.email_redacted, email_hash: a.email_hash, email_ref: a.vault_ref })),
          meeting_link: i.meeting_link,
          provider: deps.provider.providerFor?.(i.meeting_link) ?? PROVIDER_OF[i.meeting_link],
          title: i.title,
          ...(i.notes_hint ? { notes_hint: i.notes_hint } : {}),
        },
        redactions_applied: ["email_redacted"],
        hashes_applied: ["email_hash"],
      };
    },
    async run(i, ctx) {
      const slot = pickSlot({ window: i.time_window, ...(i.day_hint ? { dayHint: i.day_hint } : {}), timezone: i.timezone, durationMinutes: i.duration_minutes, nowMs: ctx.now });
      if (!slot) throw new ToolFailure("INVALID_INPUT", "No time inside that window works. Please give another day or time.");
      const attendees = i.attendees.map((a) => {
        const email = deps.vault.get(ctx.tenant_id, a.vault_ref);
        if (!email) throw new ToolFailure("INVALID_INPUT", `The address for ${a.name} is no longer available. Please provide it again.`);
        return { name: a.name, email };
      });
      const ev = await deps.provider.createEvent({
        tenant_id: ctx.tenant_id,
        idempotency_key: ctx.idempotency_key,
        link_type: i.meeting_link,
        title: i.title,
        start_utc: slot.startUtc,
        end_utc: slot.endUtc,
        timezone: i.timezone,
        attendees,
      });
      const artifactId = deps.ids("art");
      const ics = writeIcs({
        uid: `${ev.provider_event_id}@logline.office`,
        dtstampUtc: ctx.now,
        timezone: i.timezone,
        localStart: slot.localStart,
        localEnd: slot.localEnd,
        summary: i.title,
        ...(i.notes_hint ? { description: i.notes_hint } : {}),
        ...(i.meeting_link === "in_person" ? { location: "In person" } : i.meeting_link === "phone" ? { location: "Phone" } : {}),
        organizer: { name: i.organizer.name, email: `${i.organizer.entity_id.replace(/[^A-Za-z0-9._-]/g, "-")}@office.invalid` },
        attendees,
        ...(ev.meeting_url ? { url: ev.meeting_url } : {}),
      });
      const queued = deps.artifacts.enqueue({
        outbox_id: deps.ids("obx"),
        tenant_id: ctx.tenant_id,
        job_id: ctx.job_id,
        idempotency_key: ctx.idempotency_key,
        to_vault_ref: i.attendees[0]!.vault_ref,
        to_redacted: i.attendees.map((a) => a.email_redacted).join(", "),
        subject: `Invitation: ${i.title}`,
        body: `${i.organizer.name} invited you to “${i.title}”.${ev.meeting_url ? ` Join: ${ev.meeting_url}` : ""}`,
        artifact_id: artifactId,
        vault_refs: i.attendees.map((a) => a.vault_ref),
      });
      // A retry whose first attempt already queued the invite reuses that invite's file.
      const finalArtifactId = queued.created ? artifactId : (queued.artifact_id ?? artifactId);
      const saved = queued.created
        ? deps.artifacts.save({ artifact_id: artifactId, tenant_id: ctx.tenant_id, job_id: ctx.job_id, filename: "invite.ics", mime_type: "text/calendar", bytes: Buffer.from(ics, "utf8"), vault_refs: i.attendees.map((a) => a.vault_ref) })
        : { size_bytes: deps.artifacts.get(ctx.tenant_id, finalArtifactId)?.bytes.length ?? 0 };
      const inviteUrl = `/v1/artifacts/${finalArtifactId}`;
      const artifacts: TArtifactRef[] = [
        { artifact_id: finalArtifactId, kind: "file", title: `Calendar invite (${LINK_LABEL[i.meeting_link]})`, url: inviteUrl, mime_type: "text/calendar", size_bytes: saved.size_bytes },
      ];
      if (ev.meeting_url) artifacts.push({ artifact_id: `${finalArtifactId}_link`, kind: "link", title: `${LINK_LABEL[i.meeting_link]} link`, url: ev.meeting_url });
      return {
        ok: true,
        output: {
          calendar_provider: deps.provider.providerFor?.(i.meeting_link) ?? PROVIDER_OF[i.meeting_link],
          event_id: ev.provider_event_id,
          ...(ev.meeting_url ? { meeting_link: ev.meeting_url } : {}),
          invite_url: inviteUrl,
          scheduled_time: { start: new Date(slot.startUtc).toISOString(), end: new Date(slot.endUtc).toISOString(), timezone: i.timezone },
          attendees_count: attendees.length + 1,
          outbox_id: queued.outbox_id,
        },
        artifacts,
      };
    },
  };
}
