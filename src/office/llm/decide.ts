import type { TCardActionType } from "../../../contracts/cards.js";
import { checkArguments } from "../mcp/arguments.js";
import type { Decision, PlanJobRef, PlanTool, SlotValues } from "../planner/planner.js";
import { validateRenderDoc } from "./render-ast.js";
import { ZModelAnswer, ZModelOperation, type ModelOperation } from "./response-schema.js";
import { validateSurfaces } from "./surfaces.js";
import { ACTION_VERBS, buildActionSummary, joinOr, quoteTitle, type IsActionAllowed } from "./target-labels.js";
import type { TargetResolution, TargetSource } from "./thread-context.js";
import { formatOpToken, formatRefToken, type OpToken, type OpType } from "./tokens.js";
import type { DroppedItem, LlmTurnExtras } from "./types.js";

/**
 * Turns a parsed model answer into one Decision, or into a clarifying question. This is where
 * the contract's hard constraints live: ids only from the candidates (tokens, when present,
 * being the only candidates), no action the job's state refuses, no guessing between targets.
 * The model's answer is advice; nothing here trusts it beyond what it can check.
 */
export interface TurnFacts {
  /** Every job the backend offered this turn, tenant-scoped. */
  jobs: ReadonlyMap<string, PlanJobRef>;
  /** The ids the model may name, in the order choices are offered (default first). */
  candidates: readonly PlanJobRef[];
  resolution: TargetResolution;
  docIds: readonly string[];
  isActionAllowed: IsActionAllowed;
  /** The MCP tools the agent may call this turn (name → schema); nothing else can be called. */
  tools?: ReadonlyMap<string, PlanTool>;
}

export type LlmDecision = Decision & { llm: LlmTurnExtras };

/**
 * Actions a model may only *offer*: they decide or end a job, so a person confirms with a click
 * (an `[op …]` button). A prompt-injected document can at most produce a question.
 */
const CONFIRM_FIRST = new Set<string>(["approve", "reject", "cancel", "dispute", "switch_tool"]);

export const CALM = {
  unavailable:
    "I can’t reach my language model right now, so I haven’t changed anything. Please try again in a moment.",
  invalid:
    "I couldn’t put together a safe answer to that, so I haven’t changed anything. Could you say it another way?",
} as const;

export function calmReply(kind: keyof typeof CALM, dropped: DroppedItem[]): LlmDecision {
  return { type: "chat_reply", text: CALM[kind], llm: { outcome: "calm_error", dropped } };
}

type Intent =
  | { kind: "reply"; text: string }
  | { kind: "propose"; op: ModelOperation & { title: string; goal: string } }
  | { kind: "input"; job: PlanJobRef; source: TargetSource | "model"; slots: SlotValues; text?: string }
  | { kind: "clarify"; question: string; choices: string[]; job?: PlanJobRef }
  | { kind: "action"; job: PlanJobRef; source: TargetSource | "model"; action: OpType; text?: string }
  | { kind: "tool"; tool: string; args: Record<string, unknown> };

export function decideFromAnswer(answer: Record<string, unknown>, facts: TurnFacts): LlmDecision {
  const dropped: DroppedItem[] = [];
  const top = ZModelAnswer.safeParse(answer);
  if (!top.success) return calmReply("invalid", [{ what: "answer", reason: "answer has no operations list" }]);

  const candidateIds = new Set(facts.candidates.map((c) => c.job_id));
  const ops: ModelOperation[] = [];
  top.data.operations.forEach((raw, index) => {
    const p = ZModelOperation.safeParse(raw);
    if (p.success) ops.push(p.data);
    else
      dropped.push({
        what: "operation",
        index,
        reason:
          `malformed operation: ${p.error.issues[0]?.path.join(".") ?? ""} ${p.error.issues[0]?.message ?? ""}`.trim(),
      });
  });

  // An id the backend did not offer (invented, from another tenant, or a token's id rewritten)
  // means the model is unsure or misled about identity: ask, never pick for it.
  const foreign = ops.find((o) => o.job_id && !candidateIds.has(o.job_id));
  if (foreign) {
    dropped.push({ what: "operation", reason: `job id not offered this turn: ${String(foreign.job_id).slice(0, 64)}` });
    return withExtras(whichJob(facts, dropped), top.data, facts);
  }

  const intents: Intent[] = [];
  for (const [index, op] of ops.entries()) {
    const r = toIntent(op, facts);
    if ("drop" in r) dropped.push({ what: "operation", index, reason: r.drop });
    else if ("ambiguous" in r) return withExtras(whichJob(facts, dropped), top.data, facts);
    else intents.push(r);
  }

  const replies = intents.filter((i): i is Extract<Intent, { kind: "reply" }> => i.kind === "reply").map((i) => i.text);
  const acts = intents.filter((i) => i.kind !== "reply");
  const replyText = replies.join("\n\n").trim();

  if (acts.length > 1) {
    // Two changes from one message would need a priority the person never gave.
    dropped.push({ what: "operation", reason: "more than one change proposed in one answer" });
    return withExtras(
      {
        type: "request_input",
        question: "I can do one of these now. Which one?",
        choices: acts.slice(0, 5).map(label),
        llm: { outcome: "clarify", dropped },
      },
      top.data,
      facts,
    );
  }
  const act = acts[0];
  if (!act) {
    if (!replyText) return calmReply("invalid", [...dropped, { what: "answer", reason: "no usable operation" }]);
    return withExtras({ type: "chat_reply", text: replyText, llm: { outcome: "reply", dropped } }, top.data, facts);
  }
  return withExtras(fromIntent(act, replyText, facts, dropped), top.data, facts);
}

function toIntent(op: ModelOperation, facts: TurnFacts): Intent | { drop: string } | { ambiguous: true } {
  switch (op.type) {
    case "chat_reply":
      return op.text?.trim() ? { kind: "reply", text: op.text.trim() } : { drop: "chat_reply without text" };
    case "propose_job": {
      const title = op.title?.trim();
      const goal = op.goal?.trim();
      if (!title || !goal) return { drop: "propose_job needs a title and a goal" };
      return { kind: "propose", op: { ...op, title, goal } };
    }
    case "ask_clarification": {
      const question = op.text?.trim();
      const choices = (op.choices ?? []).map((c) => c.trim()).filter(Boolean);
      if (!question) return { drop: "ask_clarification without a question" };
      if (choices.length < 2 || choices.length > 5) return { drop: "ask_clarification needs 2 to 5 choices" };
      const job = op.job_id ? facts.jobs.get(op.job_id) : undefined;
      return { kind: "clarify", question, choices, ...(job ? { job } : {}) };
    }
    case "provide_input": {
      const slots = cleanSlots(op.slots);
      if (Object.keys(slots).length === 0) return { drop: "provide_input without any value" };
      const target = resolveJob(op.job_id, facts);
      if (!target) return { ambiguous: true };
      if (!facts.isActionAllowed(target.job.state, "job.provide_input") && target.job.state !== "proposed")
        return { drop: `job is ${target.job.state}; it takes no input now` };
      return { kind: "input", ...target, slots, ...(op.text?.trim() ? { text: op.text.trim() } : {}) };
    }
    case "call_tool": {
      const tool = op.tool ? facts.tools?.get(op.tool) : undefined;
      if (!tool) return { drop: `call_tool names a tool not offered: ${String(op.tool ?? "none").slice(0, 64)}` };
      let args: unknown;
      try {
        args = JSON.parse(op.arguments_json?.trim() || "{}");
      } catch {
        return { drop: `call_tool arguments are not JSON` };
      }
      if (!args || typeof args !== "object" || Array.isArray(args))
        return { drop: "call_tool arguments must be one JSON object" };
      // Checked against the tool's own schema before anything is shown or run.
      const problems = checkArguments(tool.input_schema, args as Record<string, unknown>);
      if (problems.length) return { drop: `arguments do not fit ${tool.name}: ${problems.join("; ")}`.slice(0, 300) };
      return { kind: "tool", tool: tool.name, args: args as Record<string, unknown> };
    }
    case "job_action": {
      if (!op.action) return { drop: "job_action without an action" };
      const target = resolveJob(op.job_id, facts);
      if (!target) return { ambiguous: true };
      if (!facts.isActionAllowed(target.job.state, `job.${op.action}` as TCardActionType))
        return {
          kind: "clarify",
          question: `${quoteTitle(target.job.title)} is ${target.job.state.replace("_", " ")}, so I can’t ${op.action.replace("_", " ")} it now. What would you like to do?`,
          choices: ["Leave it as it is", "Show me the job"],
          job: target.job,
        };
      return { kind: "action", ...target, action: op.action, ...(op.text?.trim() ? { text: op.text.trim() } : {}) };
    }
  }
}

/** The job an op targets: its own (already checked) id, the single token, or the default. */
function resolveJob(
  jobId: string | null | undefined,
  facts: TurnFacts,
): { job: PlanJobRef; source: TargetSource | "model" } | null {
  const r = facts.resolution;
  if (jobId) {
    const job = facts.jobs.get(jobId)!;
    if (r.kind === "tokens") return { job, source: "token" };
    if (r.kind === "default" && r.jobId === jobId) return { job, source: r.source };
    return { job, source: "model" };
  }
  if (r.kind === "tokens")
    return r.jobIds.length === 1 ? { job: facts.jobs.get(r.jobIds[0]!)!, source: "token" } : null;
  if (r.kind === "default") return { job: facts.jobs.get(r.jobId)!, source: r.source };
  return null;
}

function fromIntent(
  act: Exclude<Intent, { kind: "reply" }>,
  replyText: string,
  facts: TurnFacts,
  dropped: DroppedItem[],
): LlmDecision {
  switch (act.kind) {
    case "propose":
      return {
        type: "propose_job",
        kind: act.op.kind ?? "generic",
        title: act.op.title,
        goal: act.op.goal,
        slots: cleanSlots(act.op.slots),
        ...(replyText ? { rationale: replyText.slice(0, 500) } : {}),
        llm: { outcome: "executed", dropped },
      };
    case "tool":
      return {
        type: "call_tool",
        tool: act.tool,
        args: act.args,
        ...(replyText ? { text: replyText.slice(0, 500) } : {}),
        llm: { outcome: "executed", dropped },
      };
    case "clarify":
      return {
        type: "request_input",
        question: act.question,
        choices: act.choices,
        ...(act.job ? { job_id: act.job.job_id } : {}),
        llm: { outcome: "clarify", dropped },
      };
    case "input": {
      const summary = buildActionSummary(act.job, "provide_input", act.source, facts.candidates);
      const text = act.text ?? (replyText || undefined);
      return {
        type: "continue_job",
        job_id: act.job.job_id,
        slots: act.slots,
        ...(text ? { text } : {}),
        llm: { outcome: "executed", action_summary: summary, dropped },
      };
    }
    case "action": {
      if (CONFIRM_FIRST.has(act.action)) {
        const verb = ACTION_VERBS[act.action] ?? act.action;
        const token = formatOpToken(act.action, act.job.job_id);
        return {
          type: "request_input",
          job_id: act.job.job_id,
          question: `${verb} ${quoteTitle(act.job.title)}? Nothing changes until you confirm.`,
          choices: [`${verb} it`, "Not now"],
          llm: { outcome: "clarify", confirm_op: { label: `${verb} it`, token }, dropped },
        };
      }
      const summary = buildActionSummary(act.job, act.action, act.source, facts.candidates);
      const text = act.text ?? (replyText || undefined);
      return {
        type: "job_action",
        job_id: act.job.job_id,
        action: `job.${act.action}` as TCardActionType,
        ...(text ? { text } : {}),
        llm: { outcome: "executed", action_summary: summary, dropped },
      };
    }
  }
}

/** "Which job do you mean? A or B?" with the candidates as `[ref …]` choices. */
function whichJob(facts: Pick<TurnFacts, "candidates">, dropped: DroppedItem[]): LlmDecision {
  const options = facts.candidates.slice(0, 5);
  if (options.length === 0) {
    return {
      type: "chat_reply",
      text: "I’m not sure which job you mean, and I don’t see one here I can act on. Pick it with # and ask again.",
      llm: { outcome: "clarify", dropped },
    };
  }
  const titles = options.map((o) => o.title);
  const choices = options.length === 1 ? [titles[0]!, "Something else"] : titles;
  return {
    type: "request_input",
    question: `Which job do you mean? ${joinOr(titles)}?`,
    choices,
    llm: {
      outcome: "clarify",
      choice_refs: options.map((o) => ({ label: o.title, token: formatRefToken(o.job_id, o.title) })),
      dropped,
    },
  };
}

function label(i: Exclude<Intent, { kind: "reply" }>): string {
  switch (i.kind) {
    case "propose":
      return `New job: ${i.op.title}`;
    case "clarify":
      return i.question.slice(0, 120);
    case "input":
      return `Update ${quoteTitle(i.job.title)}`;
    case "action":
      return `${ACTION_VERBS[i.action] ?? i.action} ${quoteTitle(i.job.title)}`;
    case "tool":
      return `Run ${i.tool}`;
  }
}

function cleanSlots(slots: ModelOperation["slots"]): SlotValues {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(slots ?? {})) if (v !== null && v !== undefined && v !== "") out[k] = v;
  return out as SlotValues;
}

/** Surfaces, render and citations ride along with any decision that is not a calm error. */
function withExtras(
  decision: LlmDecision,
  answer: { surfaces?: unknown; render?: unknown; citations?: unknown },
  facts: TurnFacts,
): LlmDecision {
  const extras = decision.llm;
  const candidateIds = new Set(facts.candidates.map((c) => c.job_id));
  const surfaces = validateSurfaces(answer.surfaces, {
    candidateIds,
    checkOp: (op: OpToken) => {
      const job = facts.jobs.get(op.job);
      if (!job) return "op token names an unknown job";
      return facts.isActionAllowed(job.state, `job.${op.type}` as TCardActionType)
        ? null
        : `op ${op.type} not allowed while ${job.state}`;
    },
  });
  for (const d of surfaces.dropped) extras.dropped.push({ what: "surface", index: d.index, reason: d.reason });
  if (surfaces.surfaces.length) extras.surfaces = surfaces.surfaces;

  if (answer.render !== undefined && answer.render !== null) {
    const r = validateRenderDoc(answer.render);
    for (const reason of r.dropped) extras.dropped.push({ what: "render", reason });
    if (r.doc) extras.render = r.doc;
  }
  if (Array.isArray(answer.citations)) {
    const docIds = new Set(facts.docIds);
    const kept: Array<{ doc_id: string; quote: string }> = [];
    answer.citations.slice(0, 10).forEach((c, index) => {
      const ok =
        c &&
        typeof c === "object" &&
        typeof c.doc_id === "string" &&
        docIds.has(c.doc_id) &&
        typeof c.quote === "string";
      if (ok) kept.push({ doc_id: c.doc_id, quote: String(c.quote).slice(0, 200) });
      else extras.dropped.push({ what: "citation", index, reason: "citation of an unknown document" });
    });
    if (kept.length) extras.citations = kept;
  }
  return decision;
}
