import type { TFormalizeCard } from "../../../contracts/cards.js";
import type { TAssistResponse, TSuggestionView } from "../../../contracts/llm.js";
import type { HostLedgerApi } from "../../ledger/index.js";
import type { Clock } from "../../shared/clock.js";
import { AppError } from "../../shared/errors.js";
import { rulesSuggestions } from "./assist-rules.js";
import type { ContextBuilder } from "../context-builder.js";
import type { Draft, EmitContext } from "../emitter.js";
import type { JobView } from "../job-machine.js";
import type { JobEngine } from "../engine/job-engine.js";
import { APPLICABLE, REPROPOSE, applyCardChange, cardChangeOf, suggestionView } from "../llm/assist-apply.js";
import type { AssistStore } from "../llm/assist-store.js";
import type { LlmPlanner } from "../llm/llm-planner.js";
import { formatRefToken } from "../llm/tokens.js";
import type { ApplySuggestionInput } from "../office-api.js";
import { validateSuggestions } from "../llm/suggestions.js";

export interface ApplySuggestionRequest extends ApplySuggestionInput {
  /** The gateway's bubble for the person's click. */
  causation_id?: string;
}

/**
 * Assist for the Job Drawer: validated suggestions (one model call with the LLM planner, the
 * job's own slots with the rules), and Apply. Nothing applies without a person's click. The
 * suggestions shown are stored (office_assist_suggestions), so Apply acts on exactly what the
 * person saw, across a restart, and once: the gateway claims the suggestion in the same commit
 * as the person's click, and Office carries it out after the 202, like a card click. On a
 * proposed job the change re-proposes the Formalize card (recorded as the person's "Request
 * changes" on that card); otherwise the agent posts it in the conversation with an ActionSummary.
 */
export function createAssist(deps: {
  ledger: HostLedgerApi;
  context: ContextBuilder;
  engine: JobEngine;
  emit: (ec: EmitContext, d: Draft[]) => Promise<string[]>;
  clock: Clock;
  store: AssistStore;
  llm?: LlmPlanner;
}) {
  const { context, engine, store } = deps;

  function jobOf(tenantId: string, jobId: string): JobView {
    const job = context.job(tenantId, jobId);
    if (!job) throw new AppError("NOT_FOUND", "Job not found", { job_id: jobId });
    return job;
  }

  const requestChanges = (job: JobView) => {
    const formalize = job.latest["job.formalize"] as TFormalizeCard | undefined;
    const button = formalize?.buttons.find((b) => b.action.type === "job.request_changes");
    return job.state === "proposed" && formalize && button ? { formalize, button } : null;
  };

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
      : validateSuggestions(rulesSuggestions(job, now), {
          nowMs: now,
          requestId: `assist_${job.job_id}`,
          surface: "job_drawer",
          knownJobIds: new Set([job.job_id]),
          conversations,
        });
    const onCard = requestChanges(job) !== null;
    const views = result.ok
      ? result.envelope.suggestions.filter((s) => APPLICABLE.has(s.type)).map((s) => suggestionView(s, onCard))
      : [];
    store.offer(tenantId, jobId, views, now);
    return {
      job_id: job.job_id,
      source: deps.llm ? "llm" : "rules",
      must_abstain: !result.ok || views.length === 0,
      suggestions: views,
      rejected: result.ok
        ? result.rejected.map((r) => ({
            ...(r.suggestionId ? { suggestion_id: r.suggestionId } : {}),
            reason: r.reason,
          }))
        : [{ reason: result.reason }],
    };
  }

  /** Everything Apply checks before anything is written: the job, membership, the offer, confirmation. */
  function check(req: ApplySuggestionRequest): TSuggestionView {
    const job = jobOf(req.tenant_id, req.job_id);
    if (!deps.ledger.facts.isMember(req.tenant_id, job.conversation_id, req.actor_entity_id))
      throw new AppError("NOT_FOUND", "Job not found", { job_id: req.job_id });
    const s = store.offered(req.tenant_id, req.job_id, req.suggestion_id, deps.clock.now());
    if (!s)
      throw new AppError("NOT_FOUND", "That suggestion is no longer offered; open Assist again.", {
        suggestion_id: req.suggestion_id,
      });
    if (s.requires_confirmation && req.confirm !== true)
      throw new AppError("VALIDATION_ERROR", "This suggestion needs confirmation: send confirm: true.", {
        field: "confirm",
      });
    if (!context.profile(req.tenant_id, job.owner_entity_id))
      throw new AppError("NOT_FOUND", "Job owner not found", { job_id: req.job_id });
    return s;
  }

  /** Runs inside the gateway's commit of the click: a second click (another key) finds it taken and rolls back. */
  function claim(req: ApplySuggestionRequest): TSuggestionView {
    const s = check(req);
    if (!store.claim(req.tenant_id, req.job_id, req.suggestion_id, deps.clock.now())) {
      throw new AppError("NOT_FOUND", "That suggestion is no longer offered; open Assist again.", {
        suggestion_id: req.suggestion_id,
      });
    }
    return s;
  }

  /** Carries out a claimed suggestion, once (applied → done before anything is emitted). */
  async function apply(req: ApplySuggestionRequest): Promise<{ ids: string[]; job_id: string; notes: string }> {
    return engine.withLock(engine.jobKey(req.tenant_id, req.job_id), async () => {
      const fresh = jobOf(req.tenant_id, req.job_id);
      const agent = context.profile(req.tenant_id, fresh.owner_entity_id);
      if (!agent) throw new AppError("NOT_FOUND", "Job owner not found", { job_id: req.job_id });
      const s = store.take(req.tenant_id, req.job_id, req.suggestion_id);
      if (!s)
        throw new AppError("NOT_FOUND", "That suggestion was not applied by a click.", {
          suggestion_id: req.suggestion_id,
        });
      const ec: EmitContext = {
        tenant_id: req.tenant_id,
        trace_id: req.trace_id,
        conversation_id: fresh.conversation_id,
        ...(req.causation_id ? { causation_id: req.causation_id } : {}),
      };
      const clean = (text: string) => engine.sanitizeText(req.tenant_id, text).text;
      const rc = requestChanges(fresh);
      if (rc && REPROPOSE.has(s.type)) {
        const built = engine.formalizeCardFor(fresh, agent, {
          kind: fresh.kind,
          goal: fresh.goal,
          slots: fresh.slots,
          ...(rc.formalize.job.constraints ? { constraints: rc.formalize.job.constraints } : {}),
          ...(fresh.parent_job_id ? { parent_job_id: fresh.parent_job_id } : {}),
        });
        const card = applyCardChange(built, rc.formalize, cardChangeOf(s, deps.clock.now(), clean));
        const r = await engine.run(
          fresh,
          agent,
          {
            type: "revise_proposal",
            by: { entity_id: req.actor_entity_id, actor_type: "human" },
            text: clean(`Assist: ${s.preview}`),
            card,
            via: { card_id: rc.formalize.card_id, button_id: rc.button.button_id, action: rc.button.action },
          },
          ec,
        );
        return { ids: r.ids, job_id: fresh.job_id, notes: "Re-proposed the job with the suggestion" };
      }
      // A proposal of a next step (or a change a job past its proposal can no longer take on a
      // card) is the agent's chat message: the person acts on it, Apply does not.
      const d = engine.textDraft(
        agent.entity_id,
        clean(`${s.type === "propose_next_action" ? "Proposed next step" : "Noted from Assist"}: ${s.preview}`).slice(
          0,
          500,
        ),
        fresh.job_id,
      );
      const summary = {
        job_id: fresh.job_id,
        job_title: fresh.title.slice(0, 200),
        assumed: false,
        action: `assist.${s.type}`,
        source: "token",
        change_token: formatRefToken(fresh.job_id, fresh.title.slice(0, 120)),
      };
      return {
        ids: await deps.emit(ec, [{ ...d, payload: { ...d.payload, action_summary: summary } }]),
        job_id: fresh.job_id,
        notes: "Recorded the suggestion",
      };
    });
  }

  return { list, check, claim, apply };
}

function details(job: JobView): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(job.slots))
    if (typeof v === "string" || typeof v === "number") out[k] = String(v).slice(0, 200);
  return out;
}
