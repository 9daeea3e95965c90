import { z } from "zod";

/**
 * Assist suggestions (AI output contract v1) for the Job Drawer and for refining a Formalize
 * card. Their todos/projects are our jobs/conversations. A suggestion is only ever a preview: it
 * applies when a person clicks Apply, and this validator decides which suggestions may even be
 * shown. Per the contract: a broken envelope is refused whole; a broken suggestion is refused
 * alone; unknown payload keys are stripped; when nothing survives, `must_abstain` is forced.
 */
const SUGGESTION_SURFACES = ["on_create", "formalize", "job_drawer", "today_plan"] as const;
type SuggestionSurface = (typeof SUGGESTION_SURFACES)[number];

const target = { jobId: z.string().min(1).max(128).optional(), jobTempId: z.string().min(1).max(128).optional() };
const name50 = z.string().trim().min(1).max(50);

const PAYLOADS = {
  set_due_date: z.object({ ...target, dueDateISO: z.iso.datetime({ offset: true }) }),
  set_priority: z.object({ ...target, priority: z.enum(["low", "normal", "high", "urgent"]) }),
  set_conversation: z
    .object({
      ...target,
      conversationId: z.string().min(1).max(128).optional(),
      conversationName: name50.optional(),
      category: name50.optional(),
    })
    .refine((p) => p.conversationId || p.conversationName, "needs conversationId or conversationName"),
  set_category: z.object({ ...target, category: name50 }),
  rewrite_title: z.object({ ...target, title: z.string().trim().min(1).max(120) }),
  propose_next_action: z
    .object({
      ...target,
      title: z.string().trim().min(1).max(120).optional(),
      text: z.string().trim().min(1).max(300).optional(),
    })
    .refine((p) => p.title || p.text, "needs title or text"),
  split_subtasks: z.object({
    jobId: target.jobId,
    subtasks: z
      .array(z.object({ title: z.string().trim().min(1).max(120), order: z.number().int().min(1).max(100) }))
      .min(1, "at least one subtask")
      .max(5, "at most 5 subtasks"),
  }),
  ask_clarification: z.object({
    ...target,
    questionId: z.string().min(1).max(128),
    question: z.string().trim().min(1).max(200),
    choices: z.array(z.string().trim().min(1).max(80)).min(2, "2 to 5 choices").max(5, "2 to 5 choices").optional(),
  }),
  defer_task: z.object({ ...target, strategy: z.enum(["someday", "next_week", "next_month"]) }),
  propose_create_conversation: z.object({ conversationName: name50 }),
} as const;
export type SuggestionType = keyof typeof PAYLOADS;
export const SUGGESTION_TYPES = Object.keys(PAYLOADS) as SuggestionType[];

export interface Suggestion {
  type: SuggestionType;
  suggestionId: string;
  confidence: number;
  rationale: string;
  requiresConfirmation?: boolean;
  payload: Record<string, unknown>;
}

interface SuggestionEnvelope {
  contractVersion: 1;
  requestId: string;
  generatedAt: string;
  surface: SuggestionSurface;
  must_abstain: boolean;
  modelInfo?: {
    provider?: string | undefined;
    model?: string | undefined;
    version?: string | undefined;
    modelGeneratedAt?: string;
  };
  suggestions: Suggestion[];
}

export interface SuggestionContext {
  /** Server time (ms); also the canonical `generatedAt`. */
  nowMs: number;
  requestId: string;
  /** The surface this request was for; an answer for another surface is refused. */
  surface: SuggestionSurface;
  knownJobIds: ReadonlySet<string>;
  /** Conversations by id → title; names resolve only by exact (case-insensitive) match. */
  conversations: ReadonlyMap<string, string>;
  /** What the person wrote, so rationales cannot copy it at length. */
  sourceText?: string;
}

export type SuggestionResult =
  | {
      ok: true;
      envelope: SuggestionEnvelope;
      rejected: Array<{ index: number; suggestionId?: string; reason: string }>;
    }
  | { ok: false; reason: string };

const ZEnvelope = z.object({
  contractVersion: z.literal(1),
  surface: z.enum(SUGGESTION_SURFACES),
  must_abstain: z.boolean().optional(),
  generatedAt: z.string().optional(),
  modelInfo: z
    .object({ provider: z.string().max(64), model: z.string().max(128), version: z.string().max(64) })
    .partial()
    .optional(),
  suggestions: z.array(z.unknown()).max(20),
});

const ZCommon = z.object({
  type: z.string(),
  suggestionId: z.string().min(1).max(128),
  confidence: z.number().min(0).max(1),
  rationale: z.string().max(120),
  requiresConfirmation: z.boolean().optional(),
  payload: z.record(z.string(), z.unknown()),
});

export function validateSuggestions(raw: unknown, ctx: SuggestionContext): SuggestionResult {
  const env = ZEnvelope.safeParse(raw);
  if (!env.success)
    return {
      ok: false,
      reason:
        `invalid envelope: ${env.error.issues[0]?.path.join(".") || "root"} ${env.error.issues[0]?.message ?? ""}`.trim(),
    };
  if (env.data.surface !== ctx.surface)
    return { ok: false, reason: `answer is for surface ${env.data.surface}, not ${ctx.surface}` };

  const rejected: Array<{ index: number; suggestionId?: string; reason: string }> = [];
  const kept: Suggestion[] = [];
  let clarifications = 0;
  // biome-ignore lint/suspicious/useIterableCallbackReturn: each `return` is an early exit after recording a rejection
  env.data.suggestions.forEach((item, index) => {
    const id =
      item && typeof item === "object" && typeof (item as { suggestionId?: unknown }).suggestionId === "string"
        ? (item as { suggestionId: string }).suggestionId
        : undefined;
    const reject = (reason: string) => void rejected.push({ index, ...(id ? { suggestionId: id } : {}), reason });
    const common = ZCommon.safeParse(item);
    if (!common.success)
      return reject(
        `${common.error.issues[0]?.path.join(".") || "suggestion"}: ${common.error.issues[0]?.message ?? "invalid"}`,
      );
    const s = common.data;
    const schema = (PAYLOADS as Record<string, z.ZodType>)[s.type];
    if (!schema) return reject(`unknown type ${s.type.slice(0, 40)}`);
    const problem = rationaleProblem(s.rationale, ctx.sourceText);
    if (problem) return reject(problem);
    // Stripping happens here: z.object drops keys the type does not define.
    const payload = schema.safeParse(s.payload);
    if (!payload.success)
      return reject(
        `payload.${payload.error.issues[0]?.path.join(".") ?? ""}: ${payload.error.issues[0]?.message ?? "invalid"}`,
      );
    const p = payload.data as Record<string, unknown>;
    const type = s.type as SuggestionType;

    const targeting = targetProblem(type, p, ctx);
    if (targeting) return reject(targeting);
    let requiresConfirmation = s.requiresConfirmation;
    if (type === "set_due_date" && Date.parse(p.dueDateISO as string) < ctx.nowMs && requiresConfirmation !== true)
      return reject("due date is in the past and requiresConfirmation is not true");
    // Escalating priority is a judgement a person makes; the suggestion may stand, the click confirms.
    if (type === "set_priority" && (p.priority === "high" || p.priority === "urgent")) requiresConfirmation = true;
    if (type === "set_conversation") {
      const byId = typeof p.conversationId === "string" ? ctx.conversations.has(p.conversationId) : false;
      const byName =
        typeof p.conversationName === "string" &&
        [...ctx.conversations.values()].some((t) => t.toLowerCase() === (p.conversationName as string).toLowerCase());
      if (!byId && !byName)
        return reject("set_conversation names a conversation that does not exist (use propose_create_conversation)");
    }
    if (type === "ask_clarification" && ++clarifications > 1)
      return reject("more than one ask_clarification in one response");
    kept.push({
      type,
      suggestionId: s.suggestionId,
      confidence: s.confidence,
      rationale: s.rationale,
      ...(requiresConfirmation !== undefined ? { requiresConfirmation } : {}),
      payload: p,
    });
  });

  const modelInfo = {
    ...(env.data.modelInfo ?? {}),
    ...(env.data.generatedAt ? { modelGeneratedAt: env.data.generatedAt.slice(0, 40) } : {}),
  };
  return {
    ok: true,
    rejected,
    envelope: {
      contractVersion: 1,
      // The server's id and clock are canonical; the model's timestamp is kept for debugging only.
      requestId: ctx.requestId,
      generatedAt: new Date(ctx.nowMs).toISOString(),
      surface: env.data.surface,
      must_abstain: kept.length === 0 || env.data.must_abstain === true,
      ...(Object.keys(modelInfo).length ? { modelInfo } : {}),
      suggestions: kept,
    },
  };
}

function targetProblem(type: SuggestionType, p: Record<string, unknown>, ctx: SuggestionContext): string | null {
  if (type === "propose_create_conversation") return null;
  const jobId = typeof p.jobId === "string" ? p.jobId : undefined;
  if (jobId && !ctx.knownJobIds.has(jobId)) return "payload.jobId is not a job offered for this request";
  if (ctx.surface === "on_create")
    return jobId || p.jobTempId ? null : "on_create needs payload.jobId or payload.jobTempId";
  return jobId ? null : `${ctx.surface} needs payload.jobId`;
}

const MARKDOWN = /[*_`#~|<>[\]]|^\s*[-+]\s|\n|\(https?:/;

function rationaleProblem(r: string, source: string | undefined): string | null {
  if (!r.trim()) return "rationale is empty";
  if (MARKDOWN.test(r)) return "rationale must be plain text (no markdown or markup)";
  if (source) {
    const hay = normalise(source);
    const needle = normalise(r);
    for (let i = 0; i + 41 <= needle.length; i++)
      if (hay.includes(needle.slice(i, i + 41))) return "rationale quotes more than 40 characters of the person's text";
  }
  return null;
}

function normalise(s: string): string {
  return s.toLowerCase().replace(/\s+/g, " ");
}
