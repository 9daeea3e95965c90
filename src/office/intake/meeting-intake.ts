import type { TRedactedValue } from "../../../contracts/events.js";
import type { TWhen } from "../../../contracts/when.js";
import type { InviteAttendee, JobSlots } from "../job-machine.js";
import { isMeetingUrl, linkServiceOf, meetingType } from "../tools/meeting-rooms.js";
import { normalizeTimeZone } from "../tools/tz.js";
import { parseWhen } from "../when/index.js";
import type { Vault } from "../vault/vault.js";

/**
 * Where a meeting job's details enter Office, whichever way they came (a planner's slots, a card
 * form, a chat answer, a change request): addresses and pasted links go to the vault, the time
 * words are resolved once into a structured window relative to the moment they were given, in
 * the job's timezone. From here on the window travels as data to the tool; nothing re-reads text.
 */
export function createMeetingIntake(deps: {
  vault: Vault;
  scrub: (tenantId: string, text: string) => string;
  defaultTimezone: string;
}) {
  /** A pasted meeting URL, kept in the vault (links carry meeting passwords and digit runs). */
  function vaultUrl(tenantId: string, url: string): TRedactedValue {
    const v = deps.vault.put(tenantId, "text", url);
    return { redacted: `${linkServiceOf(url)} link`, hash: v.hash, vault_ref: v.vault_ref };
  }

  /**
   * The window for `slots` when its time words or timezone changed in `update`; the previous
   * window otherwise. A timezone given later re-reads the same words from the same moment.
   */
  function resolveWhen(
    prev: JobSlots,
    merged: JobSlots,
    update: Record<string, unknown>,
    now: number,
  ): TWhen | undefined {
    if (!merged.time_window) return undefined;
    // "Tue–Thu, 14:00–17:00" given for a call asked "next week" means those days of next week.
    const text = merged.day_hint ? `${merged.time_window} ${merged.day_hint}` : merged.time_window;
    const changed = "time_window" in update || "timezone" in update || "day_hint" in update;
    if (!changed && prev.when) return prev.when;
    const asked = "time_window" in update || !prev.when ? now : Date.parse(prev.when.asked_at);
    // Read in the job's language: a Portuguese job's "amanhã às 15h" is a time; and Portuguese
    // time words are understood from anyone, as the planner understands Portuguese requests.
    const read = (locale: string | undefined) =>
      parseWhen(text, { now: asked, timezone: merged.timezone ?? deps.defaultTimezone, locale });
    return read(merged.locale) ?? (merged.locale === "pt" ? null : read("pt")) ?? undefined;
  }

  /**
   * Planner or form values → the slot changes to record (ledger-safe), given the job's current
   * slots. Unknown or empty values are dropped; a link that is not an https URL is dropped too.
   */
  function intake(tenantId: string, update: Record<string, unknown>, prev: JobSlots, now: number): Partial<JobSlots> {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(update)) {
      if (v === undefined || v === null || v === "") continue;
      if (k === "attendee_email" && typeof v === "string") {
        const v2 = deps.vault.put(tenantId, "email", v.trim());
        out.attendee_email = { redacted: v2.redacted, hash: v2.hash, vault_ref: v2.vault_ref } satisfies TRedactedValue;
      } else if (k === "meeting_url" && typeof v === "string") {
        if (isMeetingUrl(v.trim())) {
          out.meeting_url = vaultUrl(tenantId, v.trim());
          out.link_label = linkServiceOf(v.trim());
          out.meeting_link = "link";
        }
      } else if (k === "meeting_link" && typeof v === "string") {
        const t = meetingType(v);
        if (t) out.meeting_link = t;
        if (t === "link" && v !== "link" && !update.link_label)
          out.link_label = { google_meet: "Google Meet", zoom: "Zoom", teams: "Teams" }[v];
      } else if (k === "timezone" && typeof v === "string") {
        const tz = normalizeTimeZone(v);
        if (tz) out.timezone = tz;
      } else if (typeof v === "string") out[k] = deps.scrub(tenantId, v).slice(0, k === "time_window" ? 300 : 500);
      else out[k] = v;
    }
    // A pasted URL wins over the type words next to it ("on Zoom: https://…").
    if (out.meeting_url) out.meeting_link = "link";
    const merged = { ...prev, ...out } as JobSlots;
    const when = resolveWhen(prev, merged, out, now);
    if (when && when !== prev.when) out.when = when;
    return out as Partial<JobSlots>;
  }

  return { intake };
}

/**
 * Who the invite is for: the attendee the job names, and the person who asked for the meeting
 * when they have given their own address (PUT /v1/me/email) and it is not the same one.
 */
export function inviteAttendees(
  slots: JobSlots,
  requester?: { display_name: string; email?: TRedactedValue },
): InviteAttendee[] {
  const email = slots.attendee_email;
  const out: InviteAttendee[] = email
    ? [
        {
          name: slots.attendee_name ?? "Guest",
          vault_ref: email.vault_ref ?? "",
          email_redacted: email.redacted,
          email_hash: email.hash ?? "",
        },
      ]
    : [];
  const own = requester?.email;
  if (own?.vault_ref && !out.some((a) => a.email_hash && a.email_hash === own.hash))
    out.push({
      name: requester!.display_name,
      vault_ref: own.vault_ref,
      email_redacted: own.redacted,
      email_hash: own.hash ?? "",
    });
  return out;
}
