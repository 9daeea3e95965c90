import type { TJobReplyReceivedPayload } from "../../../contracts/events.js";
import { AppError } from "../../shared/errors.js";
import { buildFinishedCard, completedButtons, counterButtons } from "../narrator.js";
import type { Draft } from "../emitter.js";
import { agentActor } from "../job-drafts.js";
import { letterHash } from "../letter-hash.js";
import type { JobView } from "../job-machine.js";
import type { InviteAttendee } from "../job-machine.js";
import { inviteAttendees } from "../intake/meeting-intake.js";
import * as copy from "../narrator.js";
import { words } from "../speak.js";
import { RECORD_ANSWER_TOOL } from "../tools/calendar-record-answer.js";
import { draftsFor, toolResultDraft } from "./basics.js";
import { isChangeable, versionArtifacts } from "./meeting-change.js";
import type { DecideContext, Decision, JobCommand, JobEffect, PlannedCall } from "./model.js";
import { noDecision } from "./model.js";

/**
 * Invitees' answers on their job: the `job.reply_received` the mailbox found, the calendar
 * write of the answer (`calendar.record_answer`) with its retries, and the card that says both.
 * The mailbox side (which job a mail answers, whether its sender was invited) is decided before
 * a reply reaches here; what is written for it is decided here.
 */

type Reply = NonNullable<JobView["replies"]>[number];

const PARTSTAT: Record<
  Exclude<TJobReplyReceivedPayload["answer"], "counter">,
  "ACCEPTED" | "DECLINED" | "TENTATIVE"
> = {
  accepted: "ACCEPTED",
  declined: "DECLINED",
  tentative: "TENTATIVE",
};

/** The calendar write of one answer, attempt n: its call id (the attempt is its last two characters). */
const answerCallId = (jobId: string, replyEventId: string, attempt: number) =>
  `tcall_${letterHash(`${jobId}|${RECORD_ANSWER_TOOL}|${replyEventId}`)}_a${attempt}`;
const answerIdem = (jobId: string, replyEventId: string) =>
  `idem:${jobId}:${RECORD_ANSWER_TOOL}:${letterHash(replyEventId, 20)}`;

/**
 * The job's own tool calls, oldest first: those of its step (the invite, its email, a tool job's
 * call), without the calendar writes of invitees' answers, which have their own retries.
 */
export const ownCalls = (job: JobView): JobView["tools"] => job.tools.filter((t) => t.tool_name !== RECORD_ANSWER_TOOL);

/** The calendar write calls of one answer, oldest first. */
function callsOf(job: JobView, replyEventId: string): JobView["tools"] {
  const prefix = answerCallId(job.job_id, replyEventId, 1).slice(0, -3);
  return job.tools.filter((t) => t.tool_name === RECORD_ANSWER_TOOL && t.tool_call_id.startsWith(prefix));
}

/**
 * Answers whose calendar write was called and is still owed: its last call has no result (the
 * process stopped during it) or failed on a retryable error. Boot tries each again.
 */
export function owedAnswerWrites(job: JobView): Reply[] {
  return (job.replies ?? []).filter((r) => {
    const last = callsOf(job, r.event_id).at(-1);
    return last && (last.status === undefined || (last.status === "error" && last.retryable));
  });
}

/** The attendee a recorded answer is from, as the job invited them (their address stays in the vault). */
function attendeeOf(job: JobView, reply: Reply, ctx: DecideContext): InviteAttendee | undefined {
  const requester = job.slots.requested_by ? ctx.profileOf(job.slots.requested_by) : undefined;
  const invited = inviteAttendees(job.slots, requester).filter((a) => a.vault_ref);
  return (
    invited.find((a) => a.email_hash === reply.attendee.email_hash && a.name === reply.attendee.name) ??
    invited.find((a) => a.name === reply.attendee.name)
  );
}

/** The planned write of `reply` by `who`, attempt n. */
function answerCall(
  job: JobView,
  reply: TJobReplyReceivedPayload,
  replyEventId: string,
  who: InviteAttendee,
  attempt: number,
): PlannedCall {
  return {
    call_id: answerCallId(job.job_id, replyEventId, attempt),
    tool_name: RECORD_ANSWER_TOOL,
    attempt,
    input: {
      event_uid: reply.event_uid,
      attendee: {
        name: who.name,
        vault_ref: who.vault_ref,
        email_redacted: who.email_redacted,
        email_hash: who.email_hash,
      },
      partstat: PARTSTAT[reply.answer as keyof typeof PARTSTAT],
    },
    idempotency_key: answerIdem(job.job_id, replyEventId),
    provider: "caldav",
  };
}

/** The `tool.called` that makes a planned answer write durable before it runs. */
function calledDraft(job: JobView, ctx: DecideContext, call: PlannedCall, replyEventId: string): Draft {
  const tool = ctx.answers!.tool;
  const clean = tool.sanitize(call.input);
  return {
    event_type: "tool.called",
    event_id: `evt_${call.call_id}`,
    actor: agentActor(ctx.agent.entity_id),
    job_id: job.job_id,
    payload: {
      tool_call_id: call.call_id,
      tool_name: RECORD_ANSWER_TOOL,
      tool_version: tool.version,
      purpose: tool.purpose(call.input),
      inputs: { ...clean.inputs, reply_event_id: replyEventId },
      pii_policy: {
        redactions_applied: clean.redactions_applied,
        hashes_applied: clean.hashes_applied,
        raw_pii_stored: false,
      },
      idempotency_key: call.idempotency_key,
      attempt: call.attempt,
      ...(call.attempt > 1 ? { retry_of_tool_call_id: answerCallId(job.job_id, replyEventId, call.attempt - 1) } : {}),
    },
  };
}

/**
 * An invitee answered: the `job.reply_received`, then either the calendar write of the answer
 * (its `tool.called` and the effect that runs it) or, when there is nothing to write — a
 * counter-proposal, no calendar connected, or an agent that may not write it — the card at once.
 */
export function recordReply(
  job: JobView,
  cmd: Extract<JobCommand, { type: "record_reply" }>,
  ctx: DecideContext,
): Decision {
  // The mailbox side refuses these before asking; a second process may still have been first.
  if (!["in_progress", "waiting_input", "completed"].includes(job.state))
    throw new AppError("CONFLICT", `The job is ${job.state.replace("_", " ")}; its answers are not recorded.`, {
      job_id: job.job_id,
    });
  if ((job.replies ?? []).some((r) => r.message_id_sha256 === cmd.reply.message_id_sha256))
    throw new AppError("CONFLICT", "This answer was already recorded.", { job_id: job.job_id });
  const reply: Draft = {
    event_type: "job.reply_received",
    event_id: cmd.event_id,
    actor: agentActor(ctx.agent.entity_id),
    job_id: job.job_id,
    payload: cmd.reply,
  };
  const calendar = ctx.answers?.calendar ?? "not_connected";
  const counter = cmd.reply.answer === "counter";
  if (counter || calendar !== "write") {
    const why = counter
      ? ""
      : copy.answerCalendarWords(
          { kind: calendar === "not_connected" ? "none" : "not_allowed" },
          words(job.slots.locale),
        );
    return {
      events: [reply, ...answerCard(job, ctx, cmd.reply, why, counter ? cmd.event_id : undefined)],
      effects: [],
    };
  }
  const call = answerCall(job, cmd.reply, cmd.event_id, cmd.attendee, 1);
  return {
    events: [reply, calledDraft(job, ctx, call, cmd.event_id)],
    effects: [{ type: "run_answer_write", job, call, reply_event_id: cmd.event_id }],
  };
}

/**
 * The calendar write of an answer ended: its `tool.result` and the card that says what the
 * calendar holds now; a retryable failure says when it is tried again and arms that retry.
 */
export function recordAnswerOutcome(
  job: JobView,
  cmd: Extract<JobCommand, { type: "record_answer_outcome" }>,
  ctx: DecideContext,
): Decision {
  const reply = (job.replies ?? []).find((r) => r.event_id === cmd.reply_event_id);
  const { call, outcome } = cmd;
  if (!reply || !job.tools.some((t) => t.tool_call_id === call.call_id)) return noDecision();
  const t = words(job.slots.locale);
  const delay =
    !outcome.ok && outcome.error.retryable
      ? ctx.retrySchedule[Math.min(call.attempt, ctx.retrySchedule.length - 1)]
      : undefined;
  const result = toolResultDraft(
    job,
    ctx,
    call,
    outcome.ok ? "success" : "error",
    outcome.latency_ms,
    outcome.ok
      ? { output: outcome.output, retryable: false }
      : {
          error: {
            ...outcome.error,
            ...(delay !== undefined ? { suggested_wait_seconds: Math.round(delay / 1000) } : {}),
          },
          retryable: delay !== undefined,
        },
  );
  // Every word from the write's recorded result: the calendar's name, or the error and when it is tried again.
  const calendarWords = copy.answerCalendarWords(
    outcome.ok
      ? { kind: "marked", calendar: (outcome.output.calendar as { name?: string } | undefined)?.name }
      : delay !== undefined
        ? {
            kind: "retrying",
            error: outcome.error.message_safe,
            at_ms: Date.parse(ctx.now) + delay,
            timezone: job.slots.timezone ?? "UTC",
          }
        : { kind: "failed", error: outcome.error.message_safe },
    t,
    job.slots.locale,
  );
  const effects: JobEffect[] =
    delay !== undefined
      ? [{ type: "arm_answer_retry", reply_event_id: reply.event_id, delay_ms: delay, attempt: call.attempt + 1 }]
      : [];
  return { events: [result, ...answerCard(job, ctx, reply, calendarWords)], effects };
}

/**
 * An answer's retry is due (a timer, or boot for a write still owed). The job is read again: a
 * write that already succeeded or failed for good is left alone; a call without its result (the
 * process stopped during it) runs again under its own id; a retryable failure is called again
 * as the next attempt.
 */
export function answerRetryDue(
  job: JobView,
  cmd: Extract<JobCommand, { type: "answer_retry_due" }>,
  ctx: DecideContext,
): Decision {
  const reply = (job.replies ?? []).find((r) => r.event_id === cmd.reply_event_id);
  const last = reply ? callsOf(job, reply.event_id).at(-1) : undefined;
  if (!reply || !last || last.status === "success" || (last.status === "error" && !last.retryable)) return noDecision();
  const who = attendeeOf(job, reply, ctx);
  if (!who) return noDecision();
  if (!last.status) {
    const call = answerCall(job, reply, reply.event_id, who, last.attempt);
    return { events: [], effects: [{ type: "run_answer_write", job, call, reply_event_id: reply.event_id }] };
  }
  const call = answerCall(job, reply, reply.event_id, who, cmd.attempt ?? last.attempt + 1);
  return {
    events: [calledDraft(job, ctx, call, reply.event_id)],
    effects: [{ type: "run_answer_write", job, call, reply_event_id: reply.event_id }],
  };
}

/** The job's card after an answer: the invite as it was recorded, then every answer so far, then this calendar write. */
function answerCard(
  job: JobView,
  ctx: DecideContext,
  latest: TJobReplyReceivedPayload,
  calendarWords: string,
  counterEventId?: string,
): Draft[] {
  const t = words(job.slots.locale);
  const lang = job.slots.locale;
  const d = draftsFor(ctx);
  const agent = ctx.agent;
  const all = [...(job.replies ?? []).filter((r) => r.message_id_sha256 !== latest.message_id_sha256), latest];
  // The latest answer of each attendee.
  const last = new Map<string, TJobReplyReceivedPayload>();
  for (const r of all) last.set(r.attendee.email_hash ?? r.attendee.name, r);
  const answers = [...last.values()].map((r) => copy.answerWords(r, t, lang)).join(" ");
  const original = [...job.cards.values()].find((c) => c.card_type === "job.finished");
  const base = original && original.card_type === "job.finished" ? original.outcome.summary : "";
  const summary = `${answers}${calendarWords} ${base}`.trim().slice(0, 600);
  const c = d.cardCtx(job, agent);
  if (job.state !== "completed")
    return [d.textDraft(agent.entity_id, `${answers}${calendarWords}`.slice(0, 1000), job.job_id)];
  const changeable = isChangeable(job);
  // A counter-proposal is answered from its card: Accept new time or Keep original, first.
  const answer = changeable && counterEventId ? counterButtons(c, counterEventId) : [];
  const buttons = [...answer, ...completedButtons(c, { changeable })];
  const card = buildFinishedCard(c, { result: "completed", summary, artifacts: versionArtifacts(job), buttons });
  return [
    {
      event_type: "message.sent",
      actor: agentActor(agent.entity_id),
      job_id: job.job_id,
      payload: { message_id: ctx.ids("msg"), kind: "card", card },
    },
  ];
}
