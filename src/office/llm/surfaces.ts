import { z } from "zod";
import {
  ZPriorityListPayload,
  ZTodaySchedulePayload,
  ZTriageTablePayload,
  ZWhatNextPayload,
} from "../../../contracts/llm.js";
import { parseTokens, type OpToken } from "./tokens.js";
/**
 * Interactive surfaces v0 (contract §7): structured blocks next to the reply. A surface never
 * acts by itself: every button is an `[op …]` token that, when a person clicks it, is sent back
 * like typed text and goes through the same parsing and validation as any click. Here each
 * surface is checked per kind; a malformed or unknown one is dropped whole, because half a
 * schedule or a triage group without its buttons misleads more than no surface at all.
 */

const SURFACE_PAYLOADS = {
  what_next_v1: ZWhatNextPayload,
  today_schedule_v1: ZTodaySchedulePayload,
  priority_list_v1: ZPriorityListPayload,
  triage_table_v1: ZTriageTablePayload,
} as const;
type SurfaceKind = keyof typeof SURFACE_PAYLOADS;

export type Surface = {
  [K in SurfaceKind]: { surface_id: string; kind: K; title: string; payload: z.infer<(typeof SURFACE_PAYLOADS)[K]> };
}[SurfaceKind];

const ZEnvelope = z.object({
  surface_id: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/),
  kind: z.string(),
  title: z.string().trim().min(1).max(120),
  payload: z.unknown(),
});

export interface SurfaceChecks {
  /** Ids the backend offered this turn. */
  candidateIds: ReadonlySet<string>;
  /** Null when the op would be accepted as a click right now; otherwise why not. */
  checkOp(op: OpToken): string | null;
}

export interface SurfaceValidation {
  surfaces: Surface[];
  dropped: Array<{ index: number; reason: string }>;
}

export function validateSurfaces(input: unknown, checks: SurfaceChecks): SurfaceValidation {
  const surfaces: Surface[] = [];
  const dropped: Array<{ index: number; reason: string }> = [];
  if (input === null || input === undefined) return { surfaces, dropped };
  if (!Array.isArray(input)) return { surfaces, dropped: [{ index: -1, reason: "surfaces is not an array" }] };
  const seen = new Set<string>();
  // biome-ignore lint/suspicious/useIterableCallbackReturn: each `return` is an early exit after recording a drop
  input.slice(0, 6).forEach((raw, index) => {
    const env = ZEnvelope.safeParse(raw);
    if (!env.success) return void dropped.push({ index, reason: "malformed surface envelope" });
    const schema = (SURFACE_PAYLOADS as Record<string, z.ZodType>)[env.data.kind];
    if (!schema) return void dropped.push({ index, reason: `unknown surface kind ${env.data.kind.slice(0, 40)}` });
    if (seen.has(env.data.surface_id)) return void dropped.push({ index, reason: "duplicate surface_id" });
    const payload = schema.safeParse(env.data.payload);
    if (!payload.success) return void dropped.push({ index, reason: `malformed ${env.data.kind} payload` });
    const problem = checkReferences(payload.data, checks);
    if (problem) return void dropped.push({ index, reason: problem });
    seen.add(env.data.surface_id);
    surfaces.push({
      surface_id: env.data.surface_id,
      kind: env.data.kind,
      title: env.data.title,
      payload: payload.data,
    } as Surface);
  });
  if (input.length > 6) dropped.push({ index: 6, reason: "too many surfaces" });
  return { surfaces, dropped };
}

/** Walks the parsed payload: every job id must be on offer and every op token must pass as a click. */
function checkReferences(payload: unknown, checks: SurfaceChecks): string | null {
  const stack: Array<[string, unknown]> = [["", payload]];
  while (stack.length) {
    const [key, v] = stack.pop()!;
    if (Array.isArray(v)) for (const x of v) stack.push([key, x]);
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) stack.push([k, x]);
    else if (typeof v === "string") {
      if ((key === "jobId" || key === "targetJobId") && !checks.candidateIds.has(v)) return `unknown job id in surface`;
      if (key === "opToken" || key.endsWith("Op")) {
        const problem = checkOpString(v, checks);
        if (problem) return problem;
      }
    }
  }
  return null;
}

function checkOpString(s: string, checks: SurfaceChecks): string | null {
  const parsed = parseTokens(s);
  if (!parsed.ok) return `invalid op token (${parsed.error.code})`;
  const [only, ...rest] = parsed.tokens;
  // The whole string must be exactly one op token: a button label smuggling extra text or a
  // second token would send more than the person sees.
  if (!only || rest.length || only.kind !== "op" || only.raw !== s.trim())
    return "button must carry exactly one [op …] token";
  if (!checks.candidateIds.has(only.job)) return "op token names an unknown job";
  return checks.checkOp(only);
}
