import { z } from "zod";
import { LIMITS } from "./limits.js";
import {
  ZActorType,
  ZButtonId,
  ZCardId,
  ZConversationId,
  ZEntityId,
  ZEventId,
  ZIsoTime,
  ZJobId,
  ZJobState,
  ZPriority,
  ZTenantId,
} from "./primitives.js";

/** A form the UI renders in the input modal (string, number, boolean, select, multiline). */
export const ZInputField = z.object({
  key: z.string().min(1).max(64),
  label: z.string().min(1).max(120),
  type: z.enum(["string", "number", "boolean", "select", "multiline"]),
  required: z.boolean().optional(),
  options: z
    .array(z.object({ value: z.string().max(120), label: z.string().max(120) }))
    .max(50)
    .optional(),
  placeholder: z.string().max(200).optional(),
  /** Extension: the value Office proposes (e.g. a contact suggestion); the person can change it. */
  default_value: z.union([z.string().max(500), z.number(), z.boolean()]).optional(),
  /** Extension: a short hint shown under the field ("from contacts", "invalid email"). */
  hint: z.string().max(200).optional(),
  /** Extension: what the server said was wrong with the last value given for this field. */
  error: z.string().max(200).optional(),
});
export const ZInputSchema = z.object({ fields: z.array(ZInputField).max(30) });

const prompt = z.string().min(1).max(1000);

/**
 * What a button does. The seed's eight actions plus three first-class ones it names as
 * "later": `job.follow_up`, `job.retry` and `job.switch_tool`.
 */
export const ZCardAction = z.discriminatedUnion("type", [
  z.object({ type: z.literal("job.approve"), job_id: ZJobId }),
  z.object({ type: z.literal("job.reject"), job_id: ZJobId, reason_code: z.string().max(64).optional() }),
  z.object({ type: z.literal("job.request_changes"), job_id: ZJobId, input_schema: ZInputSchema.optional() }),
  z.object({ type: z.literal("job.provide_input"), job_id: ZJobId, input_schema: ZInputSchema.optional() }),
  z.object({ type: z.literal("job.ack"), job_id: ZJobId }),
  z.object({ type: z.literal("job.dispute"), job_id: ZJobId, reason_code: z.string().max(64).optional() }),
  z.object({ type: z.literal("job.cancel"), job_id: ZJobId }),
  z.object({
    type: z.literal("job.follow_up"),
    job_id: ZJobId,
    prompt_text: prompt.optional(),
    /**
     * A booked meeting's follow-up that changes it: move it to another time, cancel it, or keep
     * it as it is against an invitee's counter-proposal (an iMIP DECLINECOUNTER).
     */
    change: z.enum(["move", "cancel", "keep"]).optional(),
    /** Accept new time / Keep original: the counter-proposal answered (its job.reply_received). */
    counter: ZEventId.optional(),
    /** A move asks for the new time in this form. */
    input_schema: ZInputSchema.optional(),
  }),
  z.object({ type: z.literal("job.retry"), job_id: ZJobId }),
  z.object({ type: z.literal("job.switch_tool"), job_id: ZJobId, to: z.string().max(64).optional() }),
  z.object({ type: z.literal("chat.ask"), job_id: ZJobId.optional(), prompt_text: prompt }),
]);
export const CARD_ACTION_TYPES = ZCardAction.options.map((o) => o.shape.type.value);

export const ZCardButton = z.object({
  button_id: ZButtonId,
  label: z.string().min(1).max(60),
  action: ZCardAction,
  style: z.enum(["primary", "secondary", "danger"]).optional(),
  requires_input: z.boolean().optional(),
  confirm: z.object({ title: z.string().max(120), body: z.string().max(300).optional() }).optional(),
});

export const ZArtifactRef = z.object({
  artifact_id: z.string().min(1).max(128),
  kind: z.enum(["file", "link", "record", "quote"]),
  title: z.string().min(1).max(200),
  url: z.string().max(2000).optional(),
  mime_type: z.string().max(100).optional(),
  size_bytes: z.number().int().nonnegative().optional(),
  event_id: ZEventId.optional(),
  /** A picture's size in pixels, read from its header at upload; set only on pictures shown inline. */
  width: z.number().int().positive().max(LIMITS.imageSide).optional(),
  height: z.number().int().positive().max(LIMITS.imageSide).optional(),
  /** How long a recording lasts, in milliseconds, as its recorder measured it; set only on audio. */
  duration_ms: z.number().int().positive().max(LIMITS.audioMs).optional(),
});

const ZOwner = z.object({
  entity_id: ZEntityId,
  display_name: z.string().min(1).max(120),
  actor_type: z.enum(["human", "agent"]),
});

const base = {
  card_id: ZCardId,
  job_id: ZJobId,
  version: z.literal("v1"),
  title: z.string().min(1).max(120),
  summary: z.string().max(400).optional(),
  state: ZJobState,
  created_at: ZIsoTime,
  conversation_id: ZConversationId,
  tenant_id: ZTenantId,
  owner: ZOwner,
  author: z.object({ entity_id: ZEntityId, display_name: z.string().min(1).max(120), actor_type: ZActorType }),
  buttons: z.array(ZCardButton).min(1).max(8),
};

// Cards are extensible: unknown keys are kept (looseObject) so an older reader never drops
// what a newer writer added, and the UI renders what it knows.
export const ZFormalizeCard = z.looseObject({
  ...base,
  card_type: z.literal("job.formalize"),
  job: z.looseObject({
    job_id: ZJobId,
    goal: z.string().min(1).max(500),
    description: z.string().max(1000).optional(),
    priority: ZPriority.optional(),
    due_at: ZIsoTime.optional(),
    inputs_needed: z
      .array(
        z.object({
          key: z.string().min(1).max(64),
          label: z.string().min(1).max(120),
          status: z.enum(["missing", "provided"]),
          value_preview: z.string().max(200).optional(),
        }),
      )
      .max(20)
      .optional(),
    expected_outputs: z
      .array(z.object({ kind: z.enum(["message", "file", "link", "record"]), description: z.string().max(300) }))
      .max(10)
      .optional(),
    constraints: z.array(z.string().max(300)).max(10).optional(),
    sla_hint: z.string().max(120).optional(),
  }),
  plan_hint: z.array(z.string().max(200)).max(10).optional(),
  /** Extension: the job this one follows up, when it was created by a Follow-up click. */
  parent_job_id: ZJobId.optional(),
});

export const ZStep = z.object({
  key: z.string().min(1).max(64),
  label: z.string().min(1).max(120),
  state: z.enum(["todo", "doing", "done", "blocked"]),
  updated_at: ZIsoTime.optional(),
});

export const ZTrackingCard = z.looseObject({
  ...base,
  card_type: z.literal("job.tracking"),
  progress: z.looseObject({
    percent: z.number().min(0).max(100).optional(),
    status_line: z.string().min(1).max(300),
    current_step: z.string().max(120).optional(),
    blockers: z.array(z.string().max(300)).max(10).optional(),
    waiting_on: z
      .array(z.object({ entity_id: ZEntityId, display_name: z.string().max(120) }))
      .max(20)
      .optional(),
    steps: z.array(ZStep).max(20).optional(),
    last_update_at: ZIsoTime.optional(),
  }),
  artifacts_preview: z.array(ZArtifactRef).max(20).optional(),
  last_tool_call_id: z.string().max(128).optional(),
});

export const ZFinishedCard = z.looseObject({
  ...base,
  card_type: z.literal("job.finished"),
  outcome: z.looseObject({
    result: z.enum(["completed", "failed", "cancelled", "rejected"]),
    summary: z.string().min(1).max(600),
    completed_at: ZIsoTime.optional(),
    failure_reason: z.string().max(300).optional(),
  }),
  artifacts: z.array(ZArtifactRef).max(20),
  next_actions: z
    .array(z.object({ label: z.string().max(120), suggested_action: ZCardAction }))
    .max(5)
    .optional(),
});

export const ZJobCard = z.discriminatedUnion("card_type", [ZFormalizeCard, ZTrackingCard, ZFinishedCard]);

export type TInputField = z.infer<typeof ZInputField>;
export type TInputSchema = z.infer<typeof ZInputSchema>;
export type TCardAction = z.infer<typeof ZCardAction>;
export type TCardActionType = TCardAction["type"];
export type TCardButton = z.infer<typeof ZCardButton>;
export type TArtifactRef = z.infer<typeof ZArtifactRef>;
export type TFormalizeCard = z.infer<typeof ZFormalizeCard>;
export type TTrackingCard = z.infer<typeof ZTrackingCard>;
export type TFinishedCard = z.infer<typeof ZFinishedCard>;
export type TJobCard = z.infer<typeof ZJobCard>;
export type TStep = z.infer<typeof ZStep>;
