import type { Clock } from "../../shared/clock.js";
import type { Decision, PlanFrame, Planner } from "../planner/planner.js";
import { decisionFromOp } from "./op-decision.js";
import type { LlmStore } from "./store.js";
import { buildActionSummary, defaultIsActionAllowed, type IsActionAllowed } from "./target-labels.js";
import { noteJobs, resolveTarget, type TargetSource } from "./thread-context.js";
import { checkMessageTokens } from "./token-check.js";
import type { OpToken, RefToken } from "./tokens.js";

/**
 * The rules planner with the same token and ThreadContext discipline as the LLM planner, so the
 * `#` picker, pin/unpin, Change and surface buttons work offline too: tokens are checked (and
 * a refused one answers with its error, nothing else), an `[op …]` is a click, a `[ref …]`
 * becomes the default target, and otherwise the precedence rules (focus → pinned → last) pick
 * the default the rules may continue. Every action it decides carries an ActionSummary.
 */
export function createContextAwareRules(deps: {
  rules: Planner;
  store: LlmStore;
  clock: Pick<Clock, "iso">;
  isActionAllowed?: IsActionAllowed;
}): Planner {
  const isActionAllowed = deps.isActionAllowed ?? defaultIsActionAllowed;
  const { store } = deps;

  async function plan(frame: PlanFrame): Promise<Decision> {
    const jobs = new Map(frame.jobs.map((j) => [j.job_id, j] as const));
    const check = checkMessageTokens(frame.text, jobs, isActionAllowed);
    if (!check.ok) {
      return {
        type: "chat_reply",
        text: `I couldn’t use the job reference in your message: ${check.error.message}`,
        llm: { outcome: "token_error", token_error: check.error, dropped: [] },
      };
    }
    let ctx = store.getThreadContext(frame.tenant_id, frame.conversation_id);
    const remember = (ids: string[]) => {
      if (!ids.length) return;
      ctx = noteJobs(ctx, ids);
      store.saveThreadContext(frame.tenant_id, frame.conversation_id, ctx, deps.clock.iso());
    };
    remember(check.tokens.map((t) => (t.kind === "ref" ? t.id : t.job)));
    const op = check.tokens.find((t): t is OpToken => t.kind === "op");
    if (op) return decisionFromOp(op, check.llmText, jobs, frame.jobs);

    const refs = check.tokens.filter((t): t is RefToken => t.kind === "ref");
    // The rules read words, not placeholders: a reference reads as the job's own title.
    let text = check.llmText;
    for (const r of refs) text = text.split(r.placeholder).join(`“${jobs.get(r.id)!.title}”`);
    const resolution = resolveTarget({
      tokenJobIds: refs.map((r) => r.id),
      roomFocusJobId: frame.focus_job_id ?? frame.default_job_id,
      ctx,
      candidateIds: new Set(frame.jobs.map((j) => j.job_id)),
    });
    const target =
      resolution.kind === "tokens"
        ? resolution.jobIds[0]
        : resolution.kind === "default"
          ? resolution.jobId
          : undefined;
    const source: TargetSource = resolution.kind === "default" ? resolution.source : "token";
    const { default_job_id: _d, ...rest } = frame;
    const decision = await deps.rules.plan({ ...rest, text, ...(target ? { default_job_id: target } : {}) });
    if (decision.type === "continue_job" && jobs.has(decision.job_id) && !decision.llm?.action_summary) {
      remember([decision.job_id]);
      const summary = buildActionSummary(
        jobs.get(decision.job_id)!,
        "provide_input",
        decision.job_id === target ? source : "model",
        frame.jobs,
      );
      return { ...decision, llm: { outcome: "executed", action_summary: summary, dropped: [] } };
    }
    return decision;
  }

  return { name: "rules", plan };
}
