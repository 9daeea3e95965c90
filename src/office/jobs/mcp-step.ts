import type { TArtifactRef, TCardButton } from "../../../contracts/cards.js";
import type { TActor } from "../../../contracts/primitives.js";
import {
  askButton,
  buildFinishedCard,
  buildFormalizeCard,
  buildTrackingCard,
  type CardContext,
  completedButtons,
  progressButtons,
  tryAgainButton,
} from "../narrator.js";
import type { Draft } from "../emitter.js";
import { agentActor, toolCallId } from "../job-drafts.js";
import { foldJob, type JobView } from "../job-machine.js";
import { decideAfterFailure } from "../engine/retry-policy.js";
import type { DecideContext, Decision, JobCommand, PlannedCall, ToolCallSpec } from "./model.js";
import { answererOf, draftsFor, priorUnknowns, toolResultDraft } from "./basics.js";
import * as copy from "../narrator.js";
import { localeSlot, jobLocale, type Translate, words } from "../speak.js";

/**
 * Jobs that call an MCP tool. What the agent may do is the admin's mode for the tool: `auto`
 * starts the job straight away (draft → in_progress, `auto_allowed`), `approve` proposes it on a
 * Formalize card showing the server, the tool and the arguments as the ledger keeps them. The
 * exact arguments wait in the vault (`arguments_ref`) until the call. Every word of a result
 * card comes from the recorded `tool.result`; a failed call is retried on its own only when the
 * tool says calling it twice is harmless (read-only or idempotent), otherwise a person decides.
 */

const STEPS = copy.toolSteps;

/** The language of a tool job: kept in its slots (approve) or with its calls (auto). */
function toolJobWords(job: JobView): Translate {
  return words(
    job.slots.locale ?? job.slots.tool_call?.locale ?? [...job.tools].reverse().find((x) => x.locale)?.locale,
  );
}

/** The tool call a job carries: proposed with it, or the one its last call made. */
export function toolCallOf(job: JobView): ToolCallSpec | undefined {
  if (job.slots.tool_call) return job.slots.tool_call;
  const last = [...job.tools].reverse().find((t) => t.args_ref);
  return last?.args_ref
    ? {
        name: last.tool_name,
        server: last.provider?.replace(/^mcp:/, "") ?? "",
        args: last.args ?? {},
        args_ref: last.args_ref,
        purpose: copy.toolJobTitle(last.tool_name, words(last.locale)),
        ...(last.locale ? { locale: last.locale } : {}),
      }
    : undefined;
}

/** The agent's mode for a tool: the admin's choice, else off. */
const modeOf = (ctx: DecideContext, name: string) => ctx.agent.tool_modes?.[name] ?? "off";

/** A new tool job from a person's request: started at once (auto) or proposed (approve). */
export function openToolJob(
  ctx: DecideContext,
  at: { tenant_id: string; conversation_id: string; trace_id: string },
  spec: ToolCallSpec,
  requestedBy: TActor,
): Decision & { job_id: string } {
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  const job_id = ctx.ids("job");
  const t = words(spec.locale);
  const title = copy.toolJobTitle(spec.name, t);
  const created: Draft = {
    event_type: "job.created",
    actor: agentActor(A),
    job_id,
    payload: {
      job_id,
      title,
      conversation_id: at.conversation_id,
      owner_entity_id: A,
      requested_by: requestedBy.entity_id,
    },
  };
  if (modeOf(ctx, spec.name) === "auto") {
    const start = d.stateDraft(
      A,
      job_id,
      "draft",
      "in_progress",
      "auto_allowed",
      copy.toolAutoNote(spec.name, requestedBy.entity_id, t),
    );
    const job = foldJob(
      [created, start].map((e) => ({ ...e, tenant_id: at.tenant_id, trace_id: at.trace_id, ts: ctx.now })),
    )!;
    const started = startToolCall(job, [created, start], ctx, spec);
    return { ...started, job_id, notes: `Ran ${spec.name} (auto)` };
  }
  const c = d.cardCtx({ job_id, tenant_id: at.tenant_id, conversation_id: at.conversation_id, title }, ctx.agent);
  const { plan_hint, ...said } = copy.toolProposal(spec, t);
  const card = buildFormalizeCard(
    c,
    {
      job_id,
      goal: spec.purpose.slice(0, 500),
      priority: "normal",
      ...said,
      kind: "tool_call",
      slots: { tool_call: spec, ...localeSlot(jobLocale(spec)) },
    },
    { plan_hint },
  );
  return {
    events: [created, ...d.cardDrafts(A, job_id, "job.proposed", card)],
    effects: [],
    job_id,
    notes: `Proposed ${spec.name} (approve)`,
  };
}

/** The job is in progress: call its tool, unless the agent may no longer use it. */
export function toolJobStep(job: JobView, prefix: Draft[], ctx: DecideContext): Decision {
  const spec = toolCallOf(job);
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  if (!spec || modeOf(ctx, spec.name) === "off") {
    const t = toolJobWords(job);
    const c = d.cardCtx(job, ctx.agent);
    const { ask, note, ...said } = copy.toolNotAllowed(spec?.name, t);
    const card = buildTrackingCard(c, {
      state: "waiting_input",
      ...said,
      waiting_on: answererOf(job, ctx.profileOf),
      steps: STEPS("blocked", t),
      buttons: [cancel(c), askButton(c, ask)],
    });
    return {
      events: [
        ...prefix,
        d.stateDraft(A, job.job_id, "in_progress", "waiting_input", "tool_not_allowed", note),
        ...d.cardDrafts(A, job.job_id, "job.progress", card),
      ],
      effects: [],
    };
  }
  return startToolCall(job, prefix, ctx, spec);
}

const cancel = (c: CardContext): TCardButton => progressButtons(c).find((b) => b.action.type === "job.cancel")!;

/** tool.called (the intent, before the call) and a Tracking card in the chat; the call is an effect. */
export function startToolCall(job: JobView, prefix: Draft[], ctx: DecideContext, spec: ToolCallSpec): Decision {
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  const prev = [...job.tools].reverse().find((x) => x.tool_name === spec.name);
  const t = spec.locale ? words(spec.locale) : toolJobWords(job);
  const attempt = (prev?.attempt ?? 0) + 1;
  const call: PlannedCall = {
    call_id: toolCallId(job.job_id, attempt, spec.name),
    tool_name: spec.name,
    attempt,
    input: { args_ref: spec.args_ref },
    idempotency_key: `idem:${job.job_id}:${spec.name}:mcp`,
    provider: `mcp:${spec.server}`,
  };
  const called: Draft = {
    event_type: "tool.called",
    event_id: `evt_${call.call_id}`,
    actor: agentActor(A),
    job_id: job.job_id,
    payload: {
      tool_call_id: call.call_id,
      tool_name: spec.name,
      tool_version: "mcp",
      purpose: spec.purpose.slice(0, 300),
      // The asker's language travels with the call, so an auto job's later cards keep it.
      inputs: {
        server: spec.server,
        provider: call.provider,
        arguments: spec.args,
        arguments_ref: spec.args_ref,
        ...(spec.locale ? { locale: spec.locale } : {}),
      },
      pii_policy: { redactions_applied: ["arguments"], hashes_applied: [], raw_pii_stored: false },
      idempotency_key: call.idempotency_key,
      attempt,
      ...(prev && attempt > 1 ? { retry_of_tool_call_id: prev.tool_call_id } : {}),
    },
  };
  const c = d.cardCtx(job, ctx.agent);
  const calling = copy.toolCalling(spec.name, t);
  const card = buildTrackingCard(c, {
    state: "in_progress",
    status_line: calling.status_line,
    steps: STEPS("call", t),
    buttons: [cancel(c), askButton(c, calling.ask)],
    last_tool_call_id: call.call_id,
  });
  return {
    events: [...prefix, called, ...d.cardDrafts(A, job.job_id, "job.progress", card)],
    effects: [{ type: "run_tool", job, call }],
  };
}

/** Progress the tool reported: the Tracking card's line and percentage (no chat message). */
export function toolProgress(
  job: JobView,
  cmd: Extract<JobCommand, { type: "tool_progress" }>,
  ctx: DecideContext,
): Decision {
  if (job.state !== "in_progress") return { events: [], effects: [] };
  const d = draftsFor(ctx);
  const t = toolJobWords(job);
  const c = d.cardCtx(job, ctx.agent);
  const percent = cmd.total ? Math.max(0, Math.min(100, Math.round((cmd.progress / cmd.total) * 100))) : undefined;
  const line = copy.toolProgressLine(cmd.tool_name, cmd, t);
  // The card of this call moves (same card, same buttons): the chat shows the progress in place.
  const calling = job.latest["job.tracking"];
  const same = calling?.last_tool_call_id === cmd.call_id ? { ...c, card_id: calling.card_id } : c;
  const card = buildTrackingCard(same, {
    state: "in_progress",
    status_line: line,
    steps: STEPS("call", t),
    buttons: [cancel(same), askButton(same, copy.toolAsk(cmd.tool_name, t))],
    last_tool_call_id: cmd.call_id,
  });
  const tracking = percent === undefined ? card : { ...card, progress: { ...card.progress, percent } };
  return {
    events: [
      {
        event_type: "job.progress",
        actor: agentActor(ctx.agent.entity_id),
        job_id: job.job_id,
        payload: { job_id: job.job_id, tracking_card: tracking },
      },
    ],
    effects: [],
  };
}

/** What the tool answered, recorded as it came (scrubbed and capped), and the card that says only that. */
export function recordToolOutcome(
  job: JobView,
  cmd: Extract<JobCommand, { type: "record_mcp_outcome" }>,
  ctx: DecideContext,
): Decision {
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  const { call, outcome } = cmd;
  const running = job.state === "in_progress";
  const t = toolJobWords(job);
  if (outcome.ok) {
    const resultId = ctx.ids("evt");
    const artifacts: TArtifactRef[] = outcome.artifacts.map((a) => ({ ...a, event_id: resultId }));
    const result = toolResultDraft(
      job,
      ctx,
      call,
      "success",
      outcome.latency_ms,
      {
        output: {
          text: outcome.text,
          content_types: outcome.content_types,
          ...(outcome.truncated ? { truncated: true } : {}),
        },
        artifacts,
        safety: {
          pii_leak_detected: false,
          redaction_summary: ["addresses and numbers in the answer replaced by their redacted forms"],
        },
        retryable: false,
      },
      resultId,
    );
    if (!running) return { events: [result], effects: [] };
    const fc = d.cardCtx(job, ctx.agent);
    const summary = copy.toolAnswered(outcome, call.tool_name, t);
    const finished = buildFinishedCard(fc, {
      result: "completed",
      summary: summary.slice(0, 600),
      artifacts,
      buttons: completedButtons(fc),
    });
    return { events: [result, ...d.cardDrafts(A, job.job_id, "job.completed", finished)], effects: [] };
  }
  const err = outcome.error;
  const tool = ctx.mcpTool?.(call.tool_name);
  const harmless = !!(tool?.annotations.readOnlyHint || tool?.annotations.idempotentHint);
  const decision =
    harmless && err.retryable
      ? decideAfterFailure({
          code: err.error_code,
          attempt: call.attempt,
          schedule: ctx.retrySchedule,
          breakerOpen: cmd.breaker_open,
          priorUnknowns: priorUnknowns(job, call.call_id),
        })
      : ({ kind: "ask" } as const);
  const result = toolResultDraft(job, ctx, call, "error", outcome.latency_ms, {
    error:
      decision.kind === "retry"
        ? { ...err, suggested_wait_seconds: Math.round(decision.delayMs / 1000) }
        : { ...err, retryable: false },
    retryable: decision.kind === "retry",
  });
  if (!running) return { events: [result], effects: [] };
  const c = d.cardCtx(job, ctx.agent);
  if (decision.kind === "retry") {
    const card = buildTrackingCard(c, {
      state: "in_progress",
      status_line: copy.toolRetrying(call.tool_name, err.message_safe, decision.delayMs, t),
      blockers: [err.message_safe],
      steps: STEPS("call", t),
      buttons: [cancel(c)],
      last_tool_call_id: call.call_id,
    });
    return {
      events: [result, ...d.cardDrafts(A, job.job_id, "job.progress", card)],
      effects: [{ type: "arm_retry", delay_ms: decision.delayMs, attempt: decision.attempt }],
    };
  }
  // Not retried on its own: calling a tool that changes things twice could do the work twice.
  const failed = copy.toolFailed(call.tool_name, err.message_safe, harmless, t);
  const waitingOn = answererOf(job, ctx.profileOf);
  if (!waitingOn.length) {
    // Nobody on record to decide (neither an approver nor an asker): the job ends, failed, and says why.
    const fc = d.cardCtx(job, ctx.agent);
    const summary = failed.slice(0, 600);
    const finished = buildFinishedCard(fc, {
      result: "failed",
      summary,
      failure_reason: err.message_safe.slice(0, 300),
      artifacts: [],
      buttons: completedButtons(fc),
    });
    return {
      events: [
        result,
        d.stateDraft(A, job.job_id, "in_progress", "failed", "tool_failed", err.message_safe.slice(0, 500)),
        ...d.cardDrafts(A, job.job_id, "job.completed", finished),
      ],
      effects: [],
    };
  }
  const card = buildTrackingCard(c, {
    state: "waiting_input",
    status_line: failed.slice(0, 300),
    blockers: [err.message_safe],
    waiting_on: waitingOn,
    steps: STEPS("blocked", t),
    buttons: [tryAgainButton(c, t), cancel(c), askButton(c, copy.toolFailedAsk(call.tool_name, t))],
    last_tool_call_id: call.call_id,
  });
  const reason =
    err.error_code === "INVALID_INPUT"
      ? "invalid_input"
      : err.error_code === "PROVIDER_AUTH_REQUIRED"
        ? "provider_auth_required"
        : "tool_failed";
  return {
    events: [
      result,
      d.stateDraft(A, job.job_id, "in_progress", "waiting_input", reason, err.message_safe.slice(0, 500)),
      ...d.cardDrafts(A, job.job_id, "job.progress", card),
    ],
    effects: [],
  };
}
