import type { TArtifactRef, TCardButton } from "../../../contracts/cards.js";
import type { TActor } from "../../../contracts/primitives.js";
import { askButton, buildFinishedCard, buildFormalizeCard, buildTrackingCard, type CardContext, completedButtons, progressButtons } from "../cards.js";
import type { Draft } from "../emitter.js";
import { agentActor, toolCallId } from "../job-drafts.js";
import { foldJob, type JobView } from "../job-machine.js";
import { decideAfterFailure } from "../retry-policy.js";
import type { DecideContext, Decision, JobCommand, PlannedCall } from "./model.js";
import { approverOf, draftsFor, priorUnknowns, toolResultDraft } from "./basics.js";

/**
 * Jobs that call an MCP tool. What the agent may do is the admin's mode for the tool: `auto`
 * starts the job straight away (draft → in_progress, `auto_allowed`), `approve` proposes it on a
 * Formalize card showing the server, the tool and the arguments as the ledger keeps them. The
 * exact arguments wait in the vault (`arguments_ref`) until the call. Every word of a result
 * card comes from the recorded `tool.result`; a failed call is retried on its own only when the
 * tool says calling it twice is harmless (read-only or idempotent), otherwise a person decides.
 */

/** A tool call a job carries: which tool, its arguments (ledger form) and where the exact ones are. */
export interface ToolCallSpec {
  name: string;
  server: string;
  args: Record<string, unknown>;
  args_ref: string;
  purpose: string;
}

const STEPS = (doing: "approve" | "call" | "done" | "blocked") => [
  {
    key: "call",
    label: "Call the tool",
    state: doing === "call" ? ("doing" as const) : doing === "approve" ? ("todo" as const) : doing === "blocked" ? ("blocked" as const) : ("done" as const),
  },
  { key: "report", label: "Report its answer", state: doing === "done" ? ("done" as const) : ("todo" as const) },
];

const argumentLine = (args: Record<string, unknown>) => {
  const parts = Object.entries(args).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return parts.length ? parts.join(", ").slice(0, 300) : "no arguments";
};

/** The tool call a job carries: proposed with it, or the one its last call made. */
export function toolCallOf(job: JobView): ToolCallSpec | undefined {
  if (job.slots.tool_call) return job.slots.tool_call;
  const last = [...job.tools].reverse().find((t) => t.args_ref);
  return last?.args_ref
    ? { name: last.tool_name, server: last.provider?.replace(/^mcp:/, "") ?? "", args: last.args ?? {}, args_ref: last.args_ref, purpose: `Run ${last.tool_name}` }
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
  const title = `Run ${spec.name}`.slice(0, 120);
  const created: Draft = {
    event_type: "job.created",
    actor: agentActor(A),
    job_id,
    payload: { job_id, title, conversation_id: at.conversation_id, owner_entity_id: A },
  };
  if (modeOf(ctx, spec.name) === "auto") {
    const start = d.stateDraft(
      A,
      job_id,
      "draft",
      "in_progress",
      "auto_allowed",
      `${spec.name} runs without approval for this agent (mode auto); asked by ${requestedBy.entity_id}`,
    );
    const job = foldJob([created, start].map((e) => ({ ...e, tenant_id: at.tenant_id, trace_id: at.trace_id, ts: ctx.now })))!;
    const started = startToolCall(job, [created, start], ctx, spec);
    return { ...started, job_id, notes: `Ran ${spec.name} (auto)` };
  }
  const c = d.cardCtx({ job_id, tenant_id: at.tenant_id, conversation_id: at.conversation_id, title }, ctx.agent);
  const card = buildFormalizeCard(
    c,
    {
      job_id,
      goal: spec.purpose.slice(0, 500),
      priority: "normal",
      expected_outputs: [{ kind: "record", description: `The answer of ${spec.name}, shown as it came` }],
      constraints: [`Tool: ${spec.name} (MCP server ${spec.server})`, `Arguments: ${argumentLine(spec.args)}`],
      sla_hint: "As soon as you approve",
      kind: "tool_call",
      slots: { tool_call: spec },
    },
    { plan_hint: ["You approve", `I call ${spec.name}`, "Its answer is shown here"] },
  );
  return { events: [created, ...d.cardDrafts(A, job_id, "job.proposed", card)], effects: [], job_id, notes: `Proposed ${spec.name} (approve)` };
}

/** The job is in progress: call its tool, unless the agent may no longer use it. */
export function toolJobStep(job: JobView, prefix: Draft[], ctx: DecideContext): Decision {
  const spec = toolCallOf(job);
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  if (!spec || modeOf(ctx, spec.name) === "off") {
    const c = d.cardCtx(job, ctx.agent);
    const name = spec?.name ?? "the tool";
    const card = buildTrackingCard(c, {
      state: "waiting_input",
      status_line: `I’m not allowed to use ${name} now. An admin can allow it, or a person can do this.`,
      blockers: [`Tool not allowed: ${name}`],
      waiting_on: approverOf(job, ctx.profileOf),
      steps: STEPS("blocked"),
      buttons: [cancel(c), askButton(c, `Who can allow ${name}?`)],
    });
    return {
      events: [
        ...prefix,
        d.stateDraft(A, job.job_id, "in_progress", "waiting_input", "tool_not_allowed", `${name} is off for this agent.`),
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
  const prev = [...job.tools].reverse().find((t) => t.tool_name === spec.name);
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
      inputs: { server: spec.server, provider: call.provider, arguments: spec.args, arguments_ref: spec.args_ref },
      pii_policy: { redactions_applied: ["arguments"], hashes_applied: [], raw_pii_stored: false },
      idempotency_key: call.idempotency_key,
      attempt,
      ...(prev && attempt > 1 ? { retry_of_tool_call_id: prev.tool_call_id } : {}),
    },
  };
  const c = d.cardCtx(job, ctx.agent);
  const card = buildTrackingCard(c, {
    state: "in_progress",
    status_line: `Calling ${spec.name}…`,
    steps: STEPS("call"),
    buttons: [cancel(c), askButton(c, `What is ${spec.name} doing?`)],
    last_tool_call_id: call.call_id,
  });
  return { events: [...prefix, called, ...d.cardDrafts(A, job.job_id, "job.progress", card)], effects: [{ type: "run_tool", job, call }] };
}

/** Progress the tool reported: the Tracking card's line and percentage (no chat message). */
export function toolProgress(job: JobView, cmd: Extract<JobCommand, { type: "tool_progress" }>, ctx: DecideContext): Decision {
  if (job.state !== "in_progress") return { events: [], effects: [] };
  const d = draftsFor(ctx);
  const c = d.cardCtx(job, ctx.agent);
  const percent = cmd.total ? Math.max(0, Math.min(100, Math.round((cmd.progress / cmd.total) * 100))) : undefined;
  const line = `${cmd.tool_name}: ${cmd.message ? cmd.message.slice(0, 200) : cmd.total ? `${cmd.progress} of ${cmd.total}` : `step ${cmd.progress}`}`;
  const card = buildTrackingCard(c, { state: "in_progress", status_line: line.slice(0, 300), steps: STEPS("call"), buttons: [cancel(c)], last_tool_call_id: cmd.call_id });
  const tracking = percent === undefined ? card : { ...card, progress: { ...card.progress, percent } };
  return {
    events: [{ event_type: "job.progress", actor: agentActor(ctx.agent.entity_id), job_id: job.job_id, payload: { job_id: job.job_id, tracking_card: tracking } }],
    effects: [],
  };
}

/** What the tool answered, recorded as it came (scrubbed and capped), and the card that says only that. */
export function recordToolOutcome(job: JobView, cmd: Extract<JobCommand, { type: "record_mcp_outcome" }>, ctx: DecideContext): Decision {
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  const { call, outcome } = cmd;
  const running = job.state === "in_progress";
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
        output: { text: outcome.text, content_types: outcome.content_types, ...(outcome.truncated ? { truncated: true } : {}) },
        artifacts,
        safety: { pii_leak_detected: false, redaction_summary: ["addresses and numbers in the answer replaced by their redacted forms"] },
        retryable: false,
      },
      resultId,
    );
    if (!running) return { events: [result], effects: [] };
    const fc = d.cardCtx(job, ctx.agent);
    const quote = outcome.text.trim()
      ? `: “${outcome.text.trim().slice(0, 300)}${outcome.text.length > 300 || outcome.truncated ? "…" : ""}”`
      : outcome.content_types.length
        ? ` with ${outcome.content_types.join(", ")}.`
        : " with nothing.";
    const finished = buildFinishedCard(fc, { result: "completed", summary: `${call.tool_name} answered${quote}`.slice(0, 600), artifacts, buttons: completedButtons(fc) });
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
    error: decision.kind === "retry" ? { ...err, suggested_wait_seconds: Math.round(decision.delayMs / 1000) } : { ...err, retryable: false },
    retryable: decision.kind === "retry",
  });
  if (!running) return { events: [result], effects: [] };
  const c = d.cardCtx(job, ctx.agent);
  if (decision.kind === "retry") {
    const card = buildTrackingCard(c, {
      state: "in_progress",
      status_line: `${call.tool_name} did not answer (${err.message_safe.slice(0, 150)}). It only reads, so I’ll try again in ${Math.round(decision.delayMs / 1000)} s.`.slice(
        0,
        300,
      ),
      blockers: [err.message_safe],
      steps: STEPS("call"),
      buttons: [cancel(c)],
      last_tool_call_id: call.call_id,
    });
    return { events: [result, ...d.cardDrafts(A, job.job_id, "job.progress", card)], effects: [{ type: "arm_retry", delay_ms: decision.delayMs, attempt: decision.attempt }] };
  }
  // Not retried on its own: calling a tool that changes things twice could do the work twice.
  const why = harmless ? "" : " I won’t call it again on my own: it may change things, so a second call could do the work twice.";
  const card = buildTrackingCard(c, {
    state: "waiting_input",
    status_line: `${call.tool_name} failed: ${err.message_safe.slice(0, 150)}.${why}`.slice(0, 300),
    blockers: [err.message_safe],
    waiting_on: approverOf(job, ctx.profileOf),
    steps: STEPS("blocked"),
    buttons: [
      { button_id: `btn_tryagain_${c.card_id.replace(/^card_/, "")}`.slice(0, 128), label: "Try again", style: "primary", action: { type: "job.retry", job_id: job.job_id } },
      cancel(c),
      askButton(c, `Why did ${call.tool_name} fail?`),
    ],
    last_tool_call_id: call.call_id,
  });
  const reason = err.error_code === "INVALID_INPUT" ? "invalid_input" : err.error_code === "PROVIDER_AUTH_REQUIRED" ? "provider_auth_required" : "tool_failed";
  return {
    events: [result, d.stateDraft(A, job.job_id, "in_progress", "waiting_input", reason, err.message_safe.slice(0, 500)), ...d.cardDrafts(A, job.job_id, "job.progress", card)],
    effects: [],
  };
}
