import { z } from "zod";
import { LIMITS } from "./facts.js";
import { ZConversationId, ZIsoTime } from "./primitives.js";

/** Scheduled messages and reminders: send this text later, remind me of that message, and what is waiting. */

/**
 * When: an instant with its offset (`2026-11-28T09:00:00-03:00`, `…Z`), or a wall-clock time
 * without one (`2026-11-28T09:00`), read in the person's own time zone (their profile's).
 */
const ZSendAt = z.string().trim().min(10).max(40);

/** Or: this many minutes from the server's now (so a device's own clock being off does not matter). */
const ZInMinutes = z
  .number()
  .int()
  .min(1)
  .max(LIMITS.scheduleDays * 24 * 60);
const oneWhen = (b: { send_at?: string | undefined; in_minutes?: number | undefined }) =>
  (b.send_at === undefined) !== (b.in_minutes === undefined);
const ONE_WHEN = { message: "Give send_at or in_minutes (one of them)" };

/** `POST /v1/conversations/:id/scheduled`: send this text here later, as me. */
export const ZScheduleMessageRequest = z
  .strictObject({
    body_text: z.string().min(1).max(LIMITS.messageChars),
    send_at: ZSendAt.optional(),
    in_minutes: ZInMinutes.optional(),
  })
  .refine(oneWhen, ONE_WHEN);

/** `PATCH /v1/scheduled/:schedule_id`: a new text or time for one still waiting. */
export const ZEditScheduleRequest = z
  .strictObject({
    body_text: z.string().min(1).max(LIMITS.messageChars).optional(),
    send_at: ZSendAt.optional(),
    in_minutes: ZInMinutes.optional(),
  })
  .refine((b) => b.send_at === undefined || b.in_minutes === undefined, ONE_WHEN)
  .refine((b) => b.body_text !== undefined || b.send_at !== undefined || b.in_minutes !== undefined, {
    message: "Give a body_text, a send_at or in_minutes",
  });

/** `POST /v1/conversations/:id/messages/:message_id/remind`: remind me of this message at `send_at` (or in `in_minutes`). */
export const ZRemindRequest = z
  .strictObject({ send_at: ZSendAt.optional(), in_minutes: ZInMinutes.optional() })
  .refine(oneWhen, ONE_WHEN);

/** One of my scheduled messages or reminders. */
export const ZScheduledMessage = z.object({
  schedule_id: z.string(),
  kind: z.enum(["message", "reminder"]),
  /** Where the message goes (a reminder: the conversation of the message it is about). */
  conversation_id: ZConversationId,
  body_text: z.string(),
  about_message_id: z.string().optional(),
  send_at: ZIsoTime,
  time_zone: z.string(),
  status: z.enum(["pending", "sent", "cancelled", "failed"]),
  /** The message it became (or will become) once sent. */
  message_id: z.string(),
  /** Where that message is: for a reminder, my Reminders conversation. */
  sent_conversation_id: ZConversationId.optional(),
  created_at: ZIsoTime,
  done_at: ZIsoTime.optional(),
  failure: z.string().optional(),
});
export type TScheduledMessage = z.infer<typeof ZScheduledMessage>;
export const ZScheduledList = z.object({ items: z.array(ZScheduledMessage) });
export type TScheduledList = z.infer<typeof ZScheduledList>;
