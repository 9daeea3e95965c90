import { z } from "zod";
import { OP_TYPES } from "./tokens.js";

/**
 * The answer we ask the model for. Two views of one shape:
 *  - `buildWireSchema(candidateIds)`: the JSON schema sent as `response_format`. It keeps to the
 *    subset every backend accepts (every field required and nullable, `additionalProperties:
 *    false`, a `type`/`kind` enum as discriminator, at most five object levels) and lists the
 *    candidate job ids as an enum, so a schema-following server cannot even spell another id.
 *  - `ZModelAnswer`: the zod reading applied to whatever comes back, schema or not. It is lenient
 *    about absent vs null and strips unknown keys; the semantic checks come after it.
 */
const OPERATION_TYPES = [
  "chat_reply",
  "propose_job",
  "provide_input",
  "ask_clarification",
  "job_action",
  "call_tool",
] as const;
/** The operations a model may name as a job action: every token operation but provide_input. */
const ZJobActionName = z.enum(OP_TYPES).exclude(["provide_input"]);

const SLOT_SHAPE = {
  duration_minutes: z.number().int().min(5).max(600).nullish(),
  attendee_name: z.string().trim().min(1).max(120).nullish(),
  attendee_email: z.string().max(254).nullish(),
  time_window: z.string().max(200).nullish(),
  timezone: z.string().max(64).nullish(),
  meeting_link: z.enum(["jitsi", "google_meet", "zoom", "teams", "phone", "in_person"]).nullish(),
  title: z.string().max(120).nullish(),
  day_hint: z.string().max(120).nullish(),
};

export const ZModelOperation = z.object({
  type: z.enum(OPERATION_TYPES),
  text: z.string().max(2000).nullish(),
  job_id: z.string().max(128).nullish(),
  action: ZJobActionName.nullish(),
  kind: z.enum(["schedule_meeting", "generic"]).nullish(),
  title: z.string().max(120).nullish(),
  goal: z.string().max(500).nullish(),
  slots: z.object(SLOT_SHAPE).nullish(),
  choices: z.array(z.string().max(200)).nullish(),
  /** call_tool: one of the agent's tools, and its arguments as JSON text (a strict schema has no free-form object). */
  tool: z.string().max(128).nullish(),
  arguments_json: z.string().max(20_000).nullish(),
});
export type ModelOperation = z.infer<typeof ZModelOperation>;

/** Top level: only `operations` must be right for the turn to count; the rest is checked piecewise. */
export const ZModelAnswer = z.object({
  operations: z.array(z.unknown()).max(10),
  surfaces: z.unknown().optional(),
  render: z.unknown().optional(),
  citations: z.unknown().optional(),
});

// ---- wire schema (what the model is told) --------------------------------------------------

const n = <T extends z.ZodType>(t: T) => t.nullable();

function wireOperation(jobIds: readonly string[], toolNames: readonly string[]) {
  const jobId = jobIds.length ? z.enum(jobIds as [string, ...string[]]) : z.null();
  return z.strictObject({
    type: z.enum(OPERATION_TYPES),
    text: n(z.string()),
    job_id: jobIds.length ? n(jobId) : z.null(),
    action: n(ZJobActionName),
    kind: n(z.enum(["schedule_meeting", "generic"])),
    title: n(z.string()),
    goal: n(z.string()),
    slots: n(
      z.strictObject({
        duration_minutes: n(z.number().int()),
        attendee_name: n(z.string()),
        attendee_email: n(z.string()),
        time_window: n(z.string()),
        timezone: n(z.string()),
        meeting_link: n(z.enum(["jitsi", "google_meet", "zoom", "teams", "phone", "in_person"])),
        title: n(z.string()),
        day_hint: n(z.string()),
      }),
    ),
    choices: n(z.array(z.string())),
    tool: toolNames.length ? n(z.enum(toolNames as [string, ...string[]])) : z.null(),
    arguments_json: n(z.string()),
  });
}

function wireSurface(jobIds: readonly string[]) {
  const jobId = jobIds.length ? n(z.enum(jobIds as [string, ...string[]])) : z.null();
  const trigger = z.strictObject({ label: z.string(), opToken: z.string(), confirm: n(z.boolean()) });
  const env = <K extends string, P extends z.ZodType>(kind: K, payload: P) =>
    z.strictObject({ surface_id: z.string(), kind: z.enum([kind]), title: z.string(), payload });
  return z.union([
    env(
      "what_next_v1",
      z.strictObject({
        headline: z.string(),
        body: n(z.string()),
        targetJobId: jobId,
        primaryAction: n(trigger),
        secondaryActions: n(z.array(trigger)),
        notes: n(z.array(z.string())),
      }),
    ),
    env(
      "today_schedule_v1",
      z.strictObject({
        blocks: z.array(
          z.strictObject({
            kind: z.enum(["event", "focus"]),
            title: z.string(),
            start: z.string(),
            end: z.string(),
            locked: n(z.boolean()),
            jobId,
          }),
        ),
        suggestions: n(z.array(z.strictObject({ previewChange: z.string(), acceptOp: z.string() }))),
        suggestAlternativesOp: n(z.string()),
      }),
    ),
    env(
      "priority_list_v1",
      z.strictObject({
        items: z.array(
          z.strictObject({
            rank: z.number().int(),
            label: z.string(),
            reason: n(z.string()),
            estimateMinutes: n(z.number().int()),
            jobId,
            actions: n(z.array(trigger)),
          }),
        ),
      }),
    ),
    env(
      "triage_table_v1",
      z.strictObject({
        groups: z.array(
          z.strictObject({
            summary: z.string(),
            approveOp: n(z.string()),
            declineOp: n(z.string()),
            items: z.array(
              z.strictObject({ preview: z.string(), jobId, approveOp: n(z.string()), declineOp: n(z.string()) }),
            ),
          }),
        ),
      }),
    ),
  ]);
}

/** The render AST, cut to the levels the wire schema allows (list items hold inline nodes directly). */
function wireRender() {
  const inline = z.strictObject({ type: z.enum(["text", "link"]), text: z.string(), href: n(z.string()) });
  const block = z.strictObject({
    type: z.enum(["heading", "paragraph", "list", "code_block"]),
    level: n(z.number().int()),
    ordered: n(z.boolean()),
    language: n(z.string()),
    text: n(z.string()),
    children: n(z.array(inline)),
    items: n(z.array(z.strictObject({ type: z.enum(["list_item"]), children: z.array(inline) }))),
  });
  return z.strictObject({ type: z.enum(["doc"]), children: z.array(block) });
}

export function buildWireSchema(
  candidateJobIds: readonly string[],
  docIds: readonly string[],
  toolNames: readonly string[] = [],
): Record<string, unknown> {
  const citation = z.strictObject({
    doc_id: docIds.length ? z.enum(docIds as [string, ...string[]]) : z.string(),
    quote: z.string(),
  });
  const root = z.strictObject({
    operations: z.array(wireOperation(candidateJobIds, toolNames)),
    surfaces: n(z.array(wireSurface(candidateJobIds))),
    render: n(wireRender()),
    citations: n(z.array(citation)),
  });
  const schema = z.toJSONSchema(root, { target: "draft-7", unrepresentable: "throw" }) as Record<string, unknown>;
  delete schema.$schema;
  return stripIntegerBounds(schema) as Record<string, unknown>;
}

/** zod writes ±2^53 bounds on every integer; some servers reject `minimum`/`maximum`, and zod re-checks anyway. */
function stripIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripIntegerBounds);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === "minimum" || k === "maximum") && Math.abs(Number(v)) === Number.MAX_SAFE_INTEGER) continue;
    out[k] = stripIntegerBounds(v);
  }
  return out;
}
