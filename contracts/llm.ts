import { z } from "zod";
import { ZJobId } from "./primitives.js";

/**
 * What the LLM layer adds to an agent's chat message (seeds 000 and 003): the ActionSummary of
 * the action it executed, surfaces v0, a safe render document, citations and clarifying
 * choices. All of it is validated by Office before it is written; these schemas are the second
 * gate (the ledger's contract), so a malformed block can never reach a projection or the UI.
 */

const label = z.string().trim().min(1).max(120);
const jobRef = z.string().min(1).max(128);
/** A `[op v:1 …]` or `[ref v:1 …]` token, exactly as the UI will send it back. */
export const ZChatToken = z.string().min(1).max(600);

/** "Applied to: …" under the agent's reply: which job it hit and whether that was a default. */
export const ZActionSummary = z.strictObject({
  job_id: ZJobId,
  job_title: z.string().max(200),
  /** True when no token of the person named the job (a precedence default or the model's pick). */
  assumed: z.boolean(),
  /** The action executed, e.g. `job.approve` or `provide_input`. */
  action: z.string().min(1).max(64),
  /** Where the target came from: a token, focus, pinned, last, or the model's pick. */
  source: z.enum(["token", "focus", "pinned", "last", "model"]).optional(),
  /** The `[ref …]` token of the job hit, for clients that re-send it. */
  change_token: ZChatToken.optional(),
  /** Other jobs the Change control may offer. */
  change_candidates: z
    .array(z.object({ job_id: ZJobId, title: z.string().max(200) }))
    .max(5)
    .optional(),
});

export const ZSurfaceOpTrigger = z.object({ label, opToken: ZChatToken, confirm: z.boolean().nullish() });

export const ZWhatNextPayload = z.object({
  headline: z.string().trim().min(1).max(200),
  body: z.string().max(1000).nullish(),
  targetJobId: jobRef.nullish(),
  primaryAction: ZSurfaceOpTrigger.nullish(),
  secondaryActions: z.array(ZSurfaceOpTrigger).max(4).nullish(),
  notes: z.array(z.string().max(300)).max(5).nullish(),
});

export const ZTodaySchedulePayload = z.object({
  blocks: z
    .array(
      z.object({
        kind: z.enum(["event", "focus"]),
        title: label,
        start: z.iso.datetime({ offset: true }),
        end: z.iso.datetime({ offset: true }),
        locked: z.boolean().nullish(),
        jobId: jobRef.nullish(),
      }),
    )
    .min(1)
    .max(24),
  suggestions: z
    .array(z.object({ previewChange: z.string().min(1).max(300), acceptOp: ZChatToken }))
    .max(5)
    .nullish(),
  suggestAlternativesOp: ZChatToken.nullish(),
});

export const ZPriorityListPayload = z.object({
  items: z
    .array(
      z.object({
        rank: z.number().int().min(1).max(50),
        label,
        reason: z.string().max(200).nullish(),
        estimateMinutes: z.number().int().min(1).max(1440).nullish(),
        jobId: jobRef.nullish(),
        actions: z.array(ZSurfaceOpTrigger).max(3).nullish(),
      }),
    )
    .min(1)
    .max(12),
});

export const ZTriageTablePayload = z.object({
  groups: z
    .array(
      z.object({
        summary: z.string().trim().min(1).max(300),
        approveOp: ZChatToken.nullish(),
        declineOp: ZChatToken.nullish(),
        items: z
          .array(
            z.object({
              preview: z.string().trim().min(1).max(300),
              jobId: jobRef.nullish(),
              approveOp: ZChatToken.nullish(),
              declineOp: ZChatToken.nullish(),
            }),
          )
          .min(1)
          .max(20),
      }),
    )
    .min(1)
    .max(8),
});

const surfaceId = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/);
const surfaceTitle = z.string().trim().min(1).max(120);

/** Surfaces v0: one of four kinds, each with its own payload; anything else is refused. */
export const ZSurface = z.discriminatedUnion("kind", [
  z.object({ surface_id: surfaceId, kind: z.literal("what_next_v1"), title: surfaceTitle, payload: ZWhatNextPayload }),
  z.object({
    surface_id: surfaceId,
    kind: z.literal("today_schedule_v1"),
    title: surfaceTitle,
    payload: ZTodaySchedulePayload,
  }),
  z.object({
    surface_id: surfaceId,
    kind: z.literal("priority_list_v1"),
    title: surfaceTitle,
    payload: ZPriorityListPayload,
  }),
  z.object({
    surface_id: surfaceId,
    kind: z.literal("triage_table_v1"),
    title: surfaceTitle,
    payload: ZTriageTablePayload,
  }),
]);

// ---- safe render AST (003 "assistant.render") -------------------------------------------------

const renderText = z.string().max(4000);
/** Only `https:`/`mailto:` links; Office's validator has already parsed them as URLs. */
const safeLink = z
  .string()
  .max(2000)
  .regex(/^(https:\/\/|mailto:)[^\s\u0000-\u001f]+$/);

export const ZRenderText = z.object({ type: z.literal("text"), text: renderText });
export const ZRenderInline = z.discriminatedUnion("type", [
  ZRenderText,
  z.object({ type: z.literal("link"), href: safeLink, children: z.array(ZRenderText).max(100) }),
]);

export type TRenderBlock =
  | { type: "heading"; level: number; children: Array<z.infer<typeof ZRenderInline>> }
  | { type: "paragraph"; children: Array<z.infer<typeof ZRenderInline>> }
  | { type: "list"; ordered: boolean; items: Array<{ type: "list_item"; children: TRenderBlock[] }> }
  | { type: "blockquote"; children: TRenderBlock[] }
  | { type: "code_block"; language?: string | undefined; text: string }
  | {
      type: "table";
      rows: Array<{
        type: "table_row";
        cells: Array<{ type: "table_cell"; header: boolean; children: Array<z.infer<typeof ZRenderInline>> }>;
      }>;
    };

export const ZRenderBlock: z.ZodType<TRenderBlock> = z
  .lazy(() =>
    z.discriminatedUnion("type", [
      z.object({
        type: z.literal("heading"),
        level: z.number().int().min(1).max(6),
        children: z.array(ZRenderInline).max(100),
      }),
      z.object({ type: z.literal("paragraph"), children: z.array(ZRenderInline).max(100) }),
      z.object({
        type: z.literal("list"),
        ordered: z.boolean(),
        items: z.array(z.object({ type: z.literal("list_item"), children: z.array(ZRenderBlock).max(100) })).max(100),
      }),
      z.object({ type: z.literal("blockquote"), children: z.array(ZRenderBlock).max(100) }),
      z.object({
        type: z.literal("code_block"),
        language: z
          .string()
          .regex(/^[a-z0-9+#-]{1,20}$/i)
          .optional(),
        text: renderText,
      }),
      z.object({
        type: z.literal("table"),
        rows: z
          .array(
            z.object({
              type: z.literal("table_row"),
              cells: z
                .array(
                  z.object({
                    type: z.literal("table_cell"),
                    header: z.boolean(),
                    children: z.array(ZRenderInline).max(100),
                  }),
                )
                .max(100),
            }),
          )
          .max(100),
      }),
    ]),
  )
  .meta({ id: "RenderBlock" });

/** A rich reply: an allowlisted tree the UI turns into DOM nodes (never HTML). */
export const ZRenderDoc = z.object({ type: z.literal("doc"), children: z.array(ZRenderBlock).min(1).max(100) });

export const ZCitation = z.object({ doc_id: z.string().min(1).max(128), quote: z.string().max(500) });

/** A clarifying question's choice: the label shown and the token a click sends. */
export const ZChoice = z.object({ label: z.string().trim().min(1).max(200), token: ZChatToken });

export type TActionSummary = z.infer<typeof ZActionSummary>;
export type TSurface = z.infer<typeof ZSurface>;
export type TRenderDoc = z.infer<typeof ZRenderDoc>;
export type TCitation = z.infer<typeof ZCitation>;
export type TChoice = z.infer<typeof ZChoice>;

// ---- gateway bodies for ThreadContext and Assist ---------------------------------------------

/** `PUT /v1/conversations/:id/context/pin` and `…/context/target`: a job, or null to clear. */
export const ZThreadContextUpdate = z.strictObject({ job_id: ZJobId.nullable() });

export const ZThreadContextView = z.object({
  conversation_id: z.string(),
  pinned_job_id: ZJobId.nullable(),
  target_job_id: ZJobId.nullable(),
  last_job_id: ZJobId.nullable(),
  recent_job_ids: z.array(ZJobId),
});

export const ZSuggestionView = z.object({
  suggestion_id: z.string(),
  type: z.string(),
  confidence: z.number(),
  rationale: z.string(),
  requires_confirmation: z.boolean(),
  /** One line a person reads before clicking Apply. */
  preview: z.string(),
  payload: z.record(z.string(), z.unknown()),
  /** What Apply does: re-propose the job's Formalize card with the change, or post it as a chat message. */
  applies_as: z.enum(["card", "message"]).optional(),
});

export const ZAssistResponse = z.object({
  job_id: ZJobId,
  source: z.enum(["rules", "llm"]),
  must_abstain: z.boolean(),
  suggestions: z.array(ZSuggestionView),
  rejected: z.array(z.object({ suggestion_id: z.string().optional(), reason: z.string() })),
});

/** `POST /v1/jobs/:job_id/assist/:suggestion_id/apply` (the body confirms past dates). */
export const ZApplySuggestionRequest = z.strictObject({ confirm: z.boolean().optional() });

export type TThreadContextView = z.infer<typeof ZThreadContextView>;
export type TSuggestionView = z.infer<typeof ZSuggestionView>;
export type TAssistResponse = z.infer<typeof ZAssistResponse>;
