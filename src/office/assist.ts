import type { TFormalizeCard } from "../../contracts/cards.js";
import type { TAssistResponse, TSuggestionView } from "../../contracts/llm.js";
import type { LedgerApi } from "../ledger/index.js";
import type { Clock } from "../shared/clock.js";
import { AppError } from "../shared/errors.js";
import { rulesSuggestions } from "./assist-rules.js";
import type { ContextBuilder } from "./context-builder.js";
import type { Draft, EmitContext } from "./emitter.js";
import type { JobView } from "./job-machine.js";
import type { JobEngine } from "./job-engine.js";
import type { LlmPlanner } from "./llm/llm-planner.js";
import { formatRefToken } from "./llm/tokens.js";
import { validateSuggestions, type Suggestion } from "./llm/suggestions.js";

export interface ApplySuggestionRequest {
  tenant_id: string;
  trace_id: string;
  job_id: string;
  suggestion_id: string;
  actor_entity_id: string;
  confirm?: boolean;
}

/**
 * Assist for the Job Drawer: validated suggestions (one model call with the LLM planner, the
 * job's own slots with the rules), and Apply. Nothing applies without a person's click, and an
 * applied suggestion goes through Office like any action: on a proposed job it re-proposes the
 * Formalize card with the change (recorded as the person's "Request changes" on that card);
 * otherwise the agent records it in the conversation with an ActionSummary.
 */
export function createAssist(deps: { ledger: LedgerApi; context: ContextBuilder; engine: JobEngine; emit: (ec: EmitContext, d: Draft[]) => Promise<string[]>; clock: Clock; llm?: LlmPlanner }) {
  const { context, engine } = deps;
  /** The last validated list per job: Apply acts on what the person saw, never on a fresh guess. */
  const shown = new Map<string, TSuggestionView[]>();
  const key = (t: string, j: string) => `${t}|${j}`;

  function jobOf(tenantId: string, jobId: string): JobView {
    const job = context.job(tenantId, jobId);
    if (!job) throw new AppError("NOT_FOUND", "Job not found", { job_id: jobId });
    return job;
  }

  async function list(tenantId: string, jobId: string, traceId: string): Promise<TAssistResponse> {
    const job = jobOf(tenantId, jobId);
    const now = deps.clock.now();
    const conversations = new Map<string, string>();
    const result = deps.llm
      ? await deps.llm.suggest({
          tenant_id: tenantId,
          conversation_id: job.conversation_id,
          trace_id: traceId,
          job: { job_id: job.job_id, title: job.title, state: job.state, goal: job.goal, details: details(job) },
          conversations,
          nowMs: now,
        })
      : validateSuggestions(rulesSuggestions(job, now), { nowMs: now, requestId: `assist_${job.job_id}`, surface: "job_drawer", knownJobIds: new Set([job.job_id]), conversations });
    const views = result.ok ? result.envelope.suggestions.filter((s) => APPLICABLE.has(s.type)).map(view) : [];
    shown.set(key(tenantId, jobId), views);
    return {
      job_id: job.job_id,
      source: deps.llm ? "llm" : "rules",
      must_abstain: !result.ok || views.length === 0,
      suggestions: views,
      rejected: result.ok ? result.rejected.map((r) => ({ ...(r.suggestionId ? { suggestion_id: r.suggestionId } : {}), reason: r.reason })) : [{ reason: result.reason }],
    };
  }

  async function apply(req: ApplySuggestionRequest): Promise<{ ids: string[]; job_id: string; notes: string }> {
    const job = jobOf(req.tenant_id, req.job_id);
    if (!deps.ledger.facts.isMember(req.tenant_id, job.conversation_id, req.actor_entity_id)) throw new AppError("NOT_FOUND", "Job not found", { job_id: req.job_id });
    const s = shown.get(key(req.tenant_id, req.job_id))?.find((x) => x.suggestion_id === req.suggestion_id);
    if (!s) throw new AppError("NOT_FOUND", "That suggestion is no longer offered; open Assist again.", { suggestion_id: req.suggestion_id });
    if (s.requires_confirmation && req.confirm !== true) throw new AppError("VALIDATION_ERROR", "This suggestion needs confirmation: send confirm: true.", { field: "confirm" });
    const agent = context.profile(req.tenant_id, job.owner_entity_id);
    if (!agent) throw new AppError("NOT_FOUND", "Job owner not found", { job_id: req.job_id });
    const ec: EmitContext = { tenant_id: req.tenant_id, trace_id: req.trace_id, conversation_id: job.conversation_id };
    return engine.withLock(engine.jobKey(req.tenant_id, job.job_id), async () => {
      const fresh = jobOf(req.tenant_id, req.job_id);
      const formalize = fresh.latest["job.formalize"] as TFormalizeCard | undefined;
      const button = formalize?.buttons.find((b) => b.action.type === "job.request_changes");
      shown.get(key(req.tenant_id, req.job_id))?.splice(shown.get(key(req.tenant_id, req.job_id))!.indexOf(s), 1);
      if (fresh.state === "proposed" && formalize && button && REPROPOSE.has(s.type)) {
        const card = engine.formalizeCardFor(fresh, agent, {
          kind: fresh.kind,
          goal: fresh.goal,
          slots: fresh.slots,
          ...(formalize.job.constraints ? { constraints: formalize.job.constraints } : {}),
          ...(fresh.parent_job_id ? { parent_job_id: fresh.parent_job_id } : {}),
        });
        const p = s.payload;
        if (s.type === "set_due_date") card.job.due_at = String(p.dueDateISO);
        if (s.type === "set_priority") card.job.priority = p.priority as NonNullable<TFormalizeCard["job"]["priority"]>;
        if (s.type === "split_subtasks") card.plan_hint = (p.subtasks as Array<{ title: string }>).map((x) => engine.sanitizeText(req.tenant_id, x.title).text.slice(0, 200));
        const human: Draft = {
          event_type: "job.changes_requested",
          actor: { entity_id: req.actor_entity_id, actor_type: "human" },
          job_id: fresh.job_id,
          payload: { job_id: fresh.job_id, changes_text: engine.sanitizeText(req.tenant_id, `Assist: ${s.preview}`).text.slice(0, 2000), card_id: formalize.card_id, button_id: button.button_id, action: button.action },
        };
        return { ids: await deps.emit(ec, [human, ...engine.cardDrafts(agent.entity_id, fresh.job_id, "job.proposed", card)]), job_id: fresh.job_id, notes: "Re-proposed the job with the suggestion" };
      }
      const d = engine.textDraft(agent.entity_id, engine.sanitizeText(req.tenant_id, `Noted from Assist: ${s.preview}`).text.slice(0, 500), fresh.job_id);
      const summary = { job_id: fresh.job_id, job_title: fresh.title.slice(0, 200), assumed: false, action: `assist.${s.type}`, source: "token", change_token: formatRefToken(fresh.job_id, fresh.title.slice(0, 120)) };
      return { ids: await deps.emit(ec, [{ ...d, payload: { ...d.payload, action_summary: summary } }]), job_id: fresh.job_id, notes: "Recorded the suggestion" };
    });
  }

  return { list, apply };
}

/** Suggestions Apply knows how to carry out (the others are refused by the list, not shown). */
const APPLICABLE = new Set(["set_due_date", "set_priority", "split_subtasks", "rewrite_title", "propose_next_action", "defer_task"]);
/** Changes a Formalize card can carry; the rest are recorded. */
const REPROPOSE = new Set(["set_due_date", "set_priority", "split_subtasks"]);

function details(job: JobView): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(job.slots)) if (typeof v === "string" || typeof v === "number") out[k] = String(v).slice(0, 200);
  return out;
}

function view(s: Suggestion): TSuggestionView {
  return { suggestion_id: s.suggestionId, type: s.type, confidence: s.confidence, rationale: s.rationale, requires_confirmation: s.requiresConfirmation === true, preview: previewOf(s), payload: s.payload };
}

function previewOf(s: Suggestion): string {
  const p = s.payload;
  switch (s.type) {
    case "set_due_date":
      return `Set the due date to ${String(p.dueDateISO).slice(0, 16).replace("T", " ")} UTC`;
    case "set_priority":
      return `Set the priority to ${String(p.priority)}`;
    case "split_subtasks":
      return `Split into steps: ${(p.subtasks as Array<{ title: string }>).map((x) => x.title).join(" → ")}`;
    case "rewrite_title":
      return `Rename to “${String(p.title)}”`;
    case "defer_task":
      return `Defer (${String(p.strategy).replace("_", " ")})`;
    default:
      return String(p.text ?? p.title ?? s.type);
  }
}
