import type { TArtifactRef } from "../../../contracts/cards.js";
import {
  authButtons,
  buildFinishedCard,
  buildTrackingCard,
  completedButtons,
  failedButtons,
  followUpNext,
  progressButtons,
  retryButtons,
  trackingButtons,
  tryLaterNext,
} from "../narrator.js";
import type { JobView } from "../job-machine.js";
import * as copy from "../narrator.js";
import { words } from "../speak.js";
import { decideAfterFailure } from "../engine/retry-policy.js";
import type { CreateInviteOutput } from "../tools/calendar-create-invite.js";
import type { ToolErrorCode } from "../tools/tool.js";
import type { DecideContext, Decision, JobCommand, JobEffect } from "./model.js";
import { approverOf, draftsFor, priorUnknowns, toolResultDraft } from "./basics.js";
import { waitFor } from "./step.js";
import { isChangeOutput } from "./meeting-change.js";

/**
 * What a tool's outcome means for the job: the result exactly as the tool reported it, and the
 * card that states it. A success says only what the output holds; a failure is retried, waits
 * for a person, or fails the job, as the retry policy rules.
 */
/** What the tool's outcome means: the result as recorded and the card that states it. */
export function recordOutcome(
  job: JobView,
  cmd: Extract<JobCommand, { type: "record_outcome" }>,
  ctx: DecideContext,
): Decision {
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  const { call, outcome: out } = cmd;
  const c = d.cardCtx(job, ctx.agent);
  const lang = job.slots.locale;
  const t = words(lang);
  if (out.ok) {
    const invite = out.output as CreateInviteOutput;
    const change = isChangeOutput(out.output) ? out.output : undefined;
    // Artifacts point at the event that recorded them, so its id is chosen here.
    const resultId = ctx.ids("evt");
    const withEvent: TArtifactRef[] = out.artifacts.map((a) => ({ ...a, event_id: resultId }));
    const resultDraft = toolResultDraft(
      job,
      ctx,
      call,
      "success",
      out.latency_ms,
      {
        output: out.output,
        artifacts: withEvent,
        safety: { pii_leak_detected: false, redaction_summary: ["attendee emails not stored raw"] },
        retryable: false,
      },
      resultId,
    );
    const effects: JobEffect[] = [{ type: "reset_breaker", provider: call.provider }];
    if (ctx.mail === "send") {
      // The invite exists; the email is a step of its own (mail.send), delivered in the background.
      const card = buildTrackingCard(c, {
        state: "in_progress",
        status_line: (change
          ? copy.changeWords(change, job.slots, {
              sent: false,
              clause: copy.mailFacts({ kind: "queued", to: copy.recipient(job.slots.attendee_email?.redacted, t) }, t),
            })
          : `${copy.inviteFactsShort(invite, t, lang)} ${copy.mailFacts({ kind: "queued", to: copy.recipient(job.slots.attendee_email?.redacted, t) }, t)}`
        ).slice(0, 300),
        steps: copy.meetingSteps("send", t),
        buttons: progressButtons(c),
        artifacts_preview: withEvent,
      });
      return {
        events: [resultDraft, ...d.cardDrafts(A, job.job_id, "job.progress", card)],
        effects: [...effects, { type: "queue_invite", job, invite }],
      };
    }
    const fc = d.cardCtx(job, ctx.agent);
    const finished = buildFinishedCard(fc, {
      result: "completed",
      summary: change
        ? copy.changeWords(change, job.slots, { sent: false, clause: copy.mailFacts({ kind: ctx.mail }, t) })
        : `${copy.inviteFacts(invite, job.slots, t)} ${copy.mailFacts({ kind: ctx.mail }, t)}`,
      artifacts: withEvent,
      buttons: completedButtons(fc),
      next_actions: followUpNext(fc),
    });
    return { events: [resultDraft, ...d.cardDrafts(A, job.job_id, "job.completed", finished)], effects };
  }

  const err = out.error;
  const decision = decideAfterFailure({
    code: err.error_code as ToolErrorCode,
    attempt: call.attempt,
    schedule: ctx.retrySchedule,
    breakerOpen: cmd.breaker_open,
    ...(err.suggested_wait_seconds !== undefined ? { suggestedWaitSeconds: err.suggested_wait_seconds } : {}),
    priorUnknowns: priorUnknowns(job, call.call_id),
  });
  const resultDraft = toolResultDraft(job, ctx, call, "error", out.latency_ms, {
    error: decision.kind === "retry" ? { ...err, suggested_wait_seconds: Math.round(decision.delayMs / 1000) } : err,
    safety: { pii_leak_detected: false, redaction_summary: ["attendee emails not stored raw"] },
    retryable: decision.kind === "retry",
  });
  const alt = copy.alternativeLink(job.slots.meeting_link, t);
  if (decision.kind === "retry") {
    const card = buildTrackingCard(c, {
      state: "in_progress",
      status_line: copy.retryStatus(err.error_code as ToolErrorCode, decision.delayMs, t),
      blockers: [err.message_safe],
      steps: copy.meetingSteps("retry", t),
      buttons: retryButtons(c, alt),
      last_tool_call_id: call.call_id,
    });
    return {
      events: [resultDraft, ...d.cardDrafts(A, job.job_id, "job.progress", card)],
      effects: [{ type: "arm_retry", delay_ms: decision.delayMs, attempt: decision.attempt }],
    };
  }
  if (decision.kind === "wait_input") {
    const auth = decision.reason_code === "provider_auth_required";
    const schema = copy.meetingInputSchema(
      ["attendee_email", "time_window"],
      job.slots,
      ctx.defaultTimezone,
      {},
      { time_window: job.slots.time_window },
      t,
    );
    return {
      events: [
        resultDraft,
        ...waitFor(job, ctx, decision.reason_code, err.message_safe, c, {
          state: "waiting_input",
          status_line: auth ? copy.authStatus(t) : copy.invalidStatus(t),
          blockers: [err.message_safe],
          waiting_on: approverOf(job, ctx.profileOf),
          steps: copy.meetingSteps("blocked_tool", t),
          buttons: auth ? authButtons(c, alt) : trackingButtons(c, schema),
          last_tool_call_id: call.call_id,
        }),
      ],
      effects: [],
    };
  }
  const fc = d.cardCtx(job, ctx.agent);
  const finished = buildFinishedCard(fc, {
    result: "failed",
    summary: copy.exhaustedSummary(t),
    failure_reason: err.message_safe,
    artifacts: [],
    buttons: failedButtons(fc, alt),
    next_actions: tryLaterNext(fc),
  });
  const note =
    decision.reason_code === "provider_circuit_open"
      ? "Calendar provider failed too often; stopped retrying."
      : "Calendar provider kept failing after retries.";
  return {
    events: [
      resultDraft,
      d.stateDraft(A, job.job_id, "in_progress", "failed", decision.reason_code, note),
      ...d.cardDrafts(A, job.job_id, "job.completed", finished),
    ],
    effects: [],
  };
}
