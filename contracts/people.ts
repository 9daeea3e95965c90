import { LIMITS } from "./facts.js";
import { z } from "zod";
import { ZEntityId, ZIsoTime, ZJobId, ZTenantId } from "./primitives.js";

/**
 * People: a person's profile (the name others see, an avatar, the time zone agents schedule in,
 * a language) and handing a job over to a person.
 */

/** `PUT /v1/me/profile` and `PUT /v1/entities/:id/profile`: only the fields given change. */
export const ZProfileUpdateRequest = z
  .strictObject({
    display_name: z.string().trim().min(1).max(LIMITS.nameChars).optional(),
    /** An IANA zone name, e.g. "America/New_York"; checked against the zones this server knows. */
    time_zone: z.string().min(1).max(LIMITS.timeZoneChars).optional(),
    /** A BCP 47 language tag, e.g. "pt-PT". */
    locale: z.string().min(2).max(LIMITS.localeChars).optional(),
    /** E-mail me what waited on me (needs mail on this server and my email on file). */
    email_digest: z.boolean().optional(),
    /** Let the others in my conversations see when I read their messages (default on). */
    read_receipts: z.boolean().optional(),
    /** A custom status everyone sees, ending by itself at `until` if given; null clears it. */
    status: z
      .strictObject({ text: z.string().trim().min(1).max(100), until: ZIsoTime.optional() })
      .nullable()
      .optional(),
    /** Do not disturb until then (notifications, push and digest wait); null ends it. */
    dnd_until: ZIsoTime.nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, {
    message:
      "Nothing to change: give display_name, time_zone, locale, email_digest, read_receipts, status or dnd_until",
  });

/** A person's profile as the workspace sees it. */
export const ZProfileView = z.object({
  tenant_id: ZTenantId,
  entity_id: ZEntityId,
  display_name: z.string(),
  avatar_url: z.string().optional(),
  time_zone: z.string().optional(),
  locale: z.string().optional(),
  email_digest: z.boolean().optional(),
  read_receipts: z.boolean().optional(),
  status_text: z.string().optional(),
  status_until: z.string().optional(),
  dnd_until: z.string().optional(),
  created_event_ids: z.array(z.string()),
});

/** `GET /v1/me/digest`: whether the e-mail digest can be had here, and whether I asked for it. */
export const ZDigestSettings = z.object({
  enabled: z.boolean(),
  available: z.boolean(),
  /** Why it cannot be had: this server sends no mail, or I have no email on file. */
  reason: z.enum(["mail_not_configured", "no_email"]).optional(),
  after_minutes: z.number().int().positive(),
});
export type TDigestSettings = z.infer<typeof ZDigestSettings>;

/** `POST /v1/jobs/:job_id/hand-over`: the job's owner becomes this person. */
export const ZHandOverRequest = z.strictObject({
  to_entity_id: ZEntityId,
  note: z.string().trim().max(500).optional(),
});

export const ZHandOverResponse = z.object({
  job_id: ZJobId,
  owner_entity_id: ZEntityId,
  created_event_ids: z.array(z.string()),
});

/** One line of a job's "Why?": a recorded event, with where to see it in the Job Drawer. */
export const ZWhyLine = z.object({
  event_id: z.string(),
  event_type: z.string(),
  ts: z.string(),
  text: z.string(),
  url: z.string(),
});
export const ZWhyResponse = z.object({ job_id: ZJobId, title: z.string(), lines: z.array(ZWhyLine) });
export type TWhyLine = z.infer<typeof ZWhyLine>;
export type TWhyResponse = z.infer<typeof ZWhyResponse>;
