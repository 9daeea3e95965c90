import type { TThreadContextView } from "../../contracts/llm.js";
import type { Clock } from "../shared/clock.js";
import { AppError } from "../shared/errors.js";
import type { ContextBuilder } from "./context-builder.js";
import type { LlmStore } from "./llm/store.js";
import { defaultIsActionAllowed } from "./llm/target-labels.js";
import { changeTarget, pinJob, type ThreadContext } from "./llm/thread-context.js";
import { checkMessageTokens } from "./llm/token-check.js";
import { parseTokens } from "./llm/tokens.js";
import type { PlanJobRef } from "./planner/planner.js";

/**
 * ThreadContext behind the UI (pin/unpin, the ActionSummary's Change) and the token check the
 * gateway runs before a person's message is stored. Both planners read the same table, so pins
 * and changed targets hold whichever planner is active, and survive restarts.
 */
export function createThreadApi(deps: {
  context: ContextBuilder;
  store: LlmStore;
  clock: Pick<Clock, "iso">;
  defaultTimezone: string;
}) {
  const { context, store } = deps;

  /** The jobs a message in this conversation may name: exactly the candidates the planner gets. */
  function candidates(tenantId: string, conversationId: string, text: string, senderId: string): PlanJobRef[] {
    const sender = context.profile(tenantId, senderId);
    const agent = context.answeringAgent(tenantId, conversationId, text, senderId);
    if (!sender || !agent)
      return context
        .conversationJobs(tenantId, conversationId)
        .map((j) => ({ job_id: j.job_id, title: j.title, state: j.state, conversation_id: j.conversation_id }));
    return context.frame({
      tenant_id: tenantId,
      conversation_id: conversationId,
      trace_id: "check",
      now: deps.clock.iso(),
      default_timezone: deps.defaultTimezone,
      agent,
      sender,
      text,
    }).jobs;
  }

  const view = (conversationId: string, ctx: ThreadContext): TThreadContextView => ({
    conversation_id: conversationId,
    pinned_job_id: ctx.pinnedJobId ?? null,
    target_job_id: ctx.focusJobId ?? null,
    last_job_id: ctx.lastJobId ?? null,
    recent_job_ids: ctx.recentJobIds,
  });

  return {
    /**
     * Throws INVALID_TOKEN (422) when a `[ref …]`/`[op …]` token in what the person typed is
     * malformed, names a job that is not on offer here (another tenant's reads the same), or
     * asks for an action the job's state refuses. No writes either way.
     */
    checkMessage(req: {
      tenant_id: string;
      conversation_id: string;
      actor_entity_id: string;
      body_text: string;
    }): void {
      const parsed = parseTokens(req.body_text);
      if (!parsed.ok)
        throw new AppError("INVALID_TOKEN", parsed.error.message, {
          token_code: parsed.error.code,
          index: parsed.error.index,
        });
      if (parsed.tokens.length === 0) return;
      const jobs = new Map(
        candidates(req.tenant_id, req.conversation_id, req.body_text, req.actor_entity_id).map(
          (j) => [j.job_id, j] as const,
        ),
      );
      const check = checkMessageTokens(req.body_text, jobs, defaultIsActionAllowed);
      if (!check.ok)
        throw new AppError("INVALID_TOKEN", check.error.message, {
          token_code: check.error.code,
          index: check.error.index,
        });
    },
    get(tenantId: string, conversationId: string): TThreadContextView {
      return view(conversationId, store.getThreadContext(tenantId, conversationId));
    },
    /** Pin, or change the ActionSummary's target; the job must be one of this conversation's. */
    set(tenantId: string, conversationId: string, what: "pin" | "target", jobId: string | null): TThreadContextView {
      if (jobId) {
        const job = context.job(tenantId, jobId);
        if (!job || job.conversation_id !== conversationId)
          throw new AppError("NOT_FOUND", "Job not found in this conversation", { job_id: jobId });
      }
      const next = (what === "pin" ? pinJob : changeTarget)(store.getThreadContext(tenantId, conversationId), jobId);
      store.saveThreadContext(tenantId, conversationId, next, deps.clock.iso());
      return view(conversationId, next);
    },
  };
}
