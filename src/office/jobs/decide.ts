import { AppError } from "../../shared/errors.js";
import type { Draft } from "../emitter.js";
import { buildFinishedCard, completedButtons } from "../narrator.js";
import type { JobView } from "../job-machine.js";
import { createJobProposals } from "../job-proposals.js";
import * as copy from "../narrator.js";
import { words } from "../speak.js";
import { formatSlot } from "../when/index.js";
import { agentActor } from "../job-drafts.js";
import type { DecideContext, Decision, JobCommand, OpenCommand } from "./model.js";
import { noDecision } from "./model.js";
import { mailAttempt, mailOutcome } from "./mail-step.js";
import { openToolJob, recordToolOutcome, startToolCall, toolCallOf, toolProgress } from "./mcp-step.js";
import { recordOutcome } from "./outcome.js";
import { handedOverCard, handOver, resultForHolder } from "./hand-over.js";
import { draftsFor, toolResultDraft } from "./basics.js";
import { startTool } from "./step.js";
import { bookedOf, isChangeable } from "./meeting-change.js";
import { answerRetryDue, ownCalls, recordAnswerOutcome, recordReply } from "./replies.js";
import { answerInChat, decideClick, resendMail } from "./person-acts.js";

/**
 * The job decider: `decide(job, command, ctx)` says what a command does to a job — the events
 * that record it and the effects the runner carries out — without reading or writing anything.
 * A refused command throws the AppError the person sees (ILLEGAL_JOB_TRANSITION,
 * INVALID_PROVENANCE, UNAUTHORIZED_ACTION, INVALID_INPUT, CONFLICT). `evolve` (job-machine.ts)
 * folds the events back into the job, so `decide` then `evolve` is the whole machine.
 *
 * The rule behind every transition it makes is the job kernel's ../../job/transitions.ts: which
 * event moves a job where (`stateAfter`, `JOB_TRANSITIONS`, the policy pack's table) and which
 * clicks each state accepts and whose they are (`ACTIONS_BY_STATE`, `mayClick`, checked in
 * ../governance-gate.ts). Every word its cards carry is the narrator's (../narrator.ts).
 */
export function decide(job: JobView, cmd: JobCommand, ctx: DecideContext): Decision {
  if (cmd.type === "hand_over") return handOver(job, cmd, ctx);
  if (cmd.type === "handed_over") return handedOverCard(job, ctx);
  if (job.handed_over) {
    // A call that was running when the job changed hands still ended: what it did is recorded.
    if (cmd.type === "record_outcome" || cmd.type === "record_mcp_outcome" || cmd.type === "record_answer_outcome") {
      const held: JobView = { ...job };
      delete held.handed_over;
      return resultForHolder(decide(held, cmd, ctx));
    }
    // Boot found its call without a result: the agent does not call again, the person is told the truth.
    if (cmd.type === "resume_call") return cutOffForHolder(job, ctx);
    // A person holds the job now: its agent writes nothing more for it, whoever asks.
    if (cmd.type === "click" || cmd.type === "answer_in_chat" || cmd.type === "resend_mail") {
      const holder = ctx.profileOf(job.handed_over.to_entity_id)?.display_name ?? job.handed_over.to_entity_id;
      throw new AppError("CONFLICT", `This job was handed over to ${holder}; its agent no longer acts on it.`, {
        job_id: job.job_id,
        owner_entity_id: job.owner_entity_id,
      });
    }
    return noDecision();
  }
  return tellingEarlierVersions(job, decideOwn(job, cmd, ctx));
}

/** What a command does to a job its agent still holds. */
function decideOwn(job: JobView, cmd: JobCommand, ctx: DecideContext): Decision {
  switch (cmd.type) {
    case "hand_over":
      return handOver(job, cmd, ctx);
    case "handed_over":
      return handedOverCard(job, ctx);
    case "meeting_changed":
      return meetingChanged(job, cmd, ctx);
    case "click":
      return decideClick(job, cmd.click, cmd.prepared, ctx);
    case "revise_proposal":
      return reviseProposal(job, cmd, ctx);
    case "answer_in_chat":
      return answerInChat(job, cmd, ctx);
    case "retry_due": {
      // A timer re-reads the job: it runs only if that very attempt is still the one due.
      const last = ownCalls(job).at(-1);
      if (
        job.state !== "in_progress" ||
        last?.status !== "error" ||
        !last.retryable ||
        last.attempt + 1 !== cmd.attempt
      )
        return noDecision();
      const spec = toolCallOf(job);
      return spec ? startToolCall(job, [], ctx, spec) : startTool(job, [], ctx);
    }
    case "resume_call": {
      const last = ownCalls(job).at(-1);
      if (job.state !== "in_progress" || !last || last.status) return noDecision();
      if (last.args_ref) return resumeToolCall(job, last, ctx);
      return startTool(job, [], ctx, { call_id: last.tool_call_id, attempt: last.attempt });
    }
    case "tool_progress":
      return toolProgress(job, cmd, ctx);
    case "record_mcp_outcome":
      return recordToolOutcome(job, cmd, ctx);
    case "record_outcome":
      return recordOutcome(job, cmd, ctx);
    case "resend_mail":
      if (job.state !== "waiting_input" && job.state !== "in_progress")
        throw new AppError(
          "CONFLICT",
          `The job is ${job.state.replace("_", " ")}; its email can no longer be resent.`,
          { job_id: job.job_id, state: job.state },
        );
      return resendMail(job, ctx);
    case "mail_attempt":
      return mailAttempt(job, cmd.delivery, cmd.attempt, ctx);
    case "mail_outcome":
      return mailOutcome(job, cmd.delivery, cmd.attempt, cmd.outcome, ctx);
    case "record_reply":
      return recordReply(job, cmd, ctx);
    case "record_answer_outcome":
      return recordAnswerOutcome(job, cmd, ctx);
    case "answer_retry_due":
      return answerRetryDue(job, cmd, ctx);
  }
}

/**
 * A job's birth: the events that open it (and, for an auto tool, start its call). Nothing exists
 * to decide against yet, so this is the decider's other entry.
 */
export function decideOpen(cmd: OpenCommand, ctx: DecideContext): Decision & { job_id: string } {
  if (cmd.type === "open_tool_job") return openToolJob(ctx, cmd.at, cmd.spec, cmd.by);
  const p = createJobProposals({
    ids: ctx.ids,
    defaultTimezone: ctx.defaultTimezone,
    drafts: draftsFor(ctx),
  }).proposeDrafts(ctx.agent, cmd.at, cmd.spec);
  return { events: p.drafts, effects: [], job_id: p.job_id };
}

/**
 * Boot found an MCP call with no result (the process stopped during it). A tool that only reads
 * or says a second call is harmless is called again under the same id; any other may or may not
 * have done its work, so a person decides (Try again / Cancel).
 */
function resumeToolCall(job: JobView, last: JobView["tools"][number], ctx: DecideContext): Decision {
  const tool = ctx.mcpTool?.(last.tool_name);
  const call = {
    call_id: last.tool_call_id,
    tool_name: last.tool_name,
    attempt: last.attempt,
    input: { args_ref: last.args_ref },
    idempotency_key: `idem:${job.job_id}:${last.tool_name}:mcp`,
    provider: last.provider ?? "mcp",
  };
  if (tool?.annotations.readOnlyHint || tool?.annotations.idempotentHint)
    return { events: [], effects: [{ type: "run_tool", job, call }] };
  const message_safe = RESTARTED;
  return recordToolOutcome(
    job,
    {
      type: "record_mcp_outcome",
      call,
      outcome: { ok: false, error: { error_code: "UNKNOWN", message_safe, retryable: false }, latency_ms: 0 },
      breaker_open: false,
    },
    ctx,
  );
}

const RESTARTED = "The server was restarted during the call; it may or may not have finished.";

/**
 * Boot found a call without a result on a job a person took over: its agent no longer acts on
 * it, so it is not called again; what is known — the call was cut off and may or may not have
 * done its work — is recorded for the holder, and the drawer stops showing a call in progress.
 */
function cutOffForHolder(job: JobView, ctx: DecideContext): Decision {
  const last = job.tools.at(-1);
  if (!last || last.status) return noDecision();
  const call = {
    call_id: last.tool_call_id,
    tool_name: last.tool_name,
    attempt: last.attempt,
    input: {},
    idempotency_key: "",
    provider: last.provider ?? "",
  };
  const error = { error_code: "UNKNOWN", message_safe: RESTARTED, retryable: false };
  return resultForHolder({
    events: [toolResultDraft(job, ctx, call, "error", 0, { error, retryable: false })],
    effects: [],
  });
}

/**
 * A move or a cancel that finishes (its Finished card, completed) makes the cards of the jobs
 * that booked the meeting's earlier versions out of date: the runner tells each of them.
 */
function tellingEarlierVersions(job: JobView, d: Decision): Decision {
  const change = job.slots.change?.kind;
  if ((change !== "move" && change !== "cancel") || !job.parent_job_id) return d;
  const done = d.events.some(
    (e) =>
      e.event_type === "job.completed" &&
      (e.payload.finished_card as { outcome?: { result?: string } })?.outcome?.result === "completed",
  );
  return done ? { ...d, effects: [...d.effects, { type: "tell_earlier_versions" }] } : d;
}

/**
 * The meeting this job booked was moved or cancelled by a later job: a new Finished card says
 * so, in that job's words (built from its calendar and mail results) and with the time it had
 * here, so the chat and the drawer no longer show the old time as the meeting's. A cancelled
 * meeting's card offers no Move… or Cancel meeting; a moved one's still does (they act on the
 * latest version).
 */
function meetingChanged(
  job: JobView,
  cmd: Extract<JobCommand, { type: "meeting_changed" }>,
  ctx: DecideContext,
): Decision {
  const booked = bookedOf(job);
  if (job.state !== "completed" || !booked) return noDecision();
  const t = words(job.slots.locale);
  const d = draftsFor(ctx);
  const c = d.cardCtx(job, ctx.agent);
  const was = formatSlot(
    Date.parse(booked.scheduled_time.start),
    Date.parse(booked.scheduled_time.end),
    booked.scheduled_time.timezone,
    job.slots.locale,
  );
  const summary = copy.earlierVersion(cmd, was, t);
  const card = buildFinishedCard(c, {
    result: "completed",
    summary,
    artifacts: [],
    buttons: completedButtons(c, { changeable: !cmd.cancelled && isChangeable(job) }),
  });
  return {
    events: [
      {
        event_type: "message.sent",
        actor: agentActor(ctx.agent.entity_id),
        job_id: job.job_id,
        payload: { message_id: ctx.ids("msg"), kind: "card", card },
      },
    ],
    effects: [],
  };
}

/** Assist's Apply on a proposal: recorded as the person's change request, answered with the new proposal. */
function reviseProposal(
  job: JobView,
  cmd: Extract<JobCommand, { type: "revise_proposal" }>,
  ctx: DecideContext,
): Decision {
  if (job.state !== "proposed")
    throw new AppError("CONFLICT", `The job is ${job.state.replace("_", " ")}; only a proposal can be revised.`, {
      job_id: job.job_id,
      state: job.state,
    });
  const asked: Draft = {
    event_type: "job.changes_requested",
    actor: cmd.by,
    job_id: job.job_id,
    payload: { job_id: job.job_id, changes_text: cmd.text.slice(0, 2000), ...cmd.via },
  };
  return {
    events: [asked, ...draftsFor(ctx).cardDrafts(ctx.agent.entity_id, job.job_id, "job.proposed", cmd.card)],
    effects: [],
  };
}
