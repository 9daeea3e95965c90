import { createHash } from "node:crypto";
import type { TArtifactRef } from "../../../contracts/cards.js";
import { AppError } from "../../shared/errors.js";
import { buildFinishedCard, buildTrackingCard, completedButtons, progressButtons, resendButtons } from "../narrator.js";
import type { Draft } from "../emitter.js";
import { agentActor, MAIL_TOOL, toolCallId } from "../job-drafts.js";
import type { JobView } from "../job-machine.js";
import { type DeliveryOutcome, type OutboxDelivery, scrubAddresses } from "../mail/index.js";
import * as copy from "../narrator.js";
import { words } from "../speak.js";
import type { DecideContext, Decision } from "./model.js";
import { approverOf, draftsFor } from "./basics.js";
import { isChangeOutput, versionArtifacts, versionOutput } from "./meeting-change.js";

/**
 * The email step of a meeting job, decided like every other: each delivery attempt of the
 * outbox is a `mail.send` call — the intent before the SMTP conversation, the result after it —
 * and the card that follows says what the mail server answered: sent (the job completes),
 * retrying, or refused (the job waits for a person: Resend or Cancel).
 */

/**
 * A Message-ID is shaped like an address (`<obx_…@sender.domain>`), and the ledger takes no
 * address; it keeps the SHA-256 of the exact header value, which anyone holding the delivered
 * email can recompute. The Outbox screen shows the id itself.
 */
export const messageIdDigest = (messageId: string) =>
  `sha256:${createHash("sha256").update(messageId, "utf8").digest("hex")}`;

export const mailIdempotencyKey = (jobId: string) => `idem:${jobId}:${MAIL_TOOL}:v1`;

const MAIL_PURPOSE = {
  invite: "Email the invite",
  move: "Email the new time",
  cancel: "Email the cancellation",
  keep: "Email the answer to the proposed time",
};
const MAIL_FILE = { invite: "invite.ics", move: "invite.ics", cancel: "cancel.ics", keep: "decline.ics" };

const calledOf = (job: JobView, attempt: number) =>
  job.tools.some((t) => t.tool_call_id === toolCallId(job.job_id, attempt, MAIL_TOOL));

function calledDraft(job: JobView, d: OutboxDelivery, attempt: number, agentId: string): Draft {
  const callId = toolCallId(job.job_id, attempt, MAIL_TOOL);
  const prev = job.tools.filter((t) => t.tool_name === MAIL_TOOL && t.tool_call_id !== callId).at(-1);
  return {
    event_type: "tool.called",
    event_id: `evt_${callId}`,
    actor: agentActor(agentId),
    job_id: job.job_id,
    payload: {
      tool_call_id: callId,
      tool_name: MAIL_TOOL,
      tool_version: "v1",
      purpose: `${MAIL_PURPOSE[job.slots.change?.kind ?? "invite"]} to ${d.to_redacted}`,
      inputs: {
        to: d.to_redacted,
        subject: d.subject,
        outbox_id: d.outbox_id,
        attachment: MAIL_FILE[job.slots.change?.kind ?? "invite"],
        provider: "smtp",
      },
      pii_policy: { redactions_applied: ["to"], hashes_applied: [], raw_pii_stored: false },
      idempotency_key: mailIdempotencyKey(job.job_id),
      attempt,
      ...(prev && attempt > 1 ? { retry_of_tool_call_id: prev.tool_call_id } : {}),
    },
  };
}

/** The intent of a delivery attempt; a resumed attempt already has it, a job no longer running sends nothing. */
export function mailAttempt(job: JobView, d: OutboxDelivery, attempt: number, ctx: DecideContext): Decision {
  if (job.state !== "in_progress") throw new AppError("CONFLICT", "The job is not running; the email waits.");
  if (calledOf(job, attempt)) return { events: [], effects: [] };
  return { events: [calledDraft(job, d, attempt, ctx.agent.entity_id)], effects: [] };
}

const errorCode = (o: Extract<DeliveryOutcome, { status: "retry" | "failed" }>) =>
  o.status === "failed" && o.code && o.code >= 500
    ? "INVALID_INPUT"
    : o.code && o.code >= 400
      ? "PROVIDER_RATE_LIMIT"
      : "PROVIDER_UNAVAILABLE";

/** The delivery's result and the card that states it, every word from this result and the invite's. */
export function mailOutcome(
  job: JobView,
  d: OutboxDelivery,
  attempt: number,
  outcome: DeliveryOutcome,
  ctx: DecideContext,
): Decision {
  const A = ctx.agent.entity_id;
  const drafts = draftsFor(ctx);
  const callId = toolCallId(job.job_id, attempt, MAIL_TOOL);
  const called = calledOf(job, attempt);
  // Nothing was called for a job no longer running: nothing to record.
  if (!called && job.state !== "in_progress") return { events: [], effects: [] };
  const pre: Draft[] = called ? [] : [calledDraft(job, d, attempt, A)];
  const result: Draft = {
    event_type: "tool.result",
    actor: agentActor(A),
    job_id: job.job_id,
    payload: {
      tool_call_id: callId,
      tool_name: MAIL_TOOL,
      status: outcome.status === "sent" ? "success" : "error",
      latency_ms: 0,
      ...(outcome.status === "sent"
        ? {
            output: {
              outbox_id: d.outbox_id,
              message_id_sha256: messageIdDigest(outcome.message_id),
              server_response: scrubAddresses(outcome.response).slice(0, 300),
              refused_recipients: outcome.rejected,
            },
          }
        : {
            error: {
              error_code: errorCode(outcome),
              message_safe: outcome.error.slice(0, 300),
              retryable: outcome.status === "retry",
              ...(outcome.status === "retry"
                ? {
                    suggested_wait_seconds: Math.max(
                      1,
                      Math.round((Date.parse(outcome.next_attempt_at) - Date.parse(ctx.now)) / 1000),
                    ),
                  }
                : {}),
            },
          }),
      safety: { pii_leak_detected: false, redaction_summary: ["recipient addresses not stored raw"] },
      attempt,
      retryable: outcome.status === "retry",
    },
  };
  const output = versionOutput(job);
  const change = isChangeOutput(output) ? output : undefined;
  const lang = job.slots.locale;
  const t = words(lang);
  const facts = change ? "" : output ? `${copy.inviteFacts(output, job.slots, t)} ` : "";
  const short = change ? "" : output ? `${copy.inviteFactsShort(output, t, lang)} ` : "";
  // A move or a cancel says what it did first; the mail clause follows, as for an invite.
  const said = (clause: string) =>
    change ? copy.changeWords(change, job.slots, { sent: false, clause }) : `${short}${clause}`;
  const artifacts: TArtifactRef[] = versionArtifacts(job);
  const c = drafts.cardCtx(job, ctx.agent);
  const tz = output?.scheduled_time.timezone ?? "UTC";
  let cards: Draft[] = [];
  if (job.state === "in_progress" && outcome.status === "sent") {
    const finished = buildFinishedCard(c, {
      result: "completed",
      summary: change
        ? copy.changeWords(change, job.slots, { sent: true })
        : `${facts}${copy.mailFacts({ kind: "sent", to: d.to_redacted, response: outcome.response }, t)}`,
      artifacts,
      // The invitation went out: the meeting can now be moved or cancelled (a cancelled one cannot).
      buttons: completedButtons(c, { changeable: change?.change !== "cancel" }),
    });
    cards = drafts.cardDrafts(A, job.job_id, "job.completed", finished);
  } else if (job.state === "in_progress" && outcome.status === "retry") {
    const card = buildTrackingCard(c, {
      state: "in_progress",
      status_line: said(
        copy.mailFacts(
          { kind: "retrying", to: d.to_redacted, error: outcome.error, next_at: outcome.next_attempt_at, timezone: tz },
          t,
          lang,
        ),
      ).slice(0, 300),
      blockers: [outcome.error.slice(0, 300)],
      steps: copy.meetingSteps("send", t),
      buttons: progressButtons(c),
      artifacts_preview: artifacts,
    });
    cards = drafts.cardDrafts(A, job.job_id, "job.progress", card);
  } else if (job.state === "in_progress" && outcome.status === "failed") {
    const card = buildTrackingCard(c, {
      state: "waiting_input",
      status_line: said(copy.mailFacts({ kind: "refused", to: d.to_redacted, error: outcome.error }, t)).slice(0, 300),
      blockers: [outcome.error.slice(0, 300)],
      waiting_on: approverOf(job, ctx.profileOf),
      steps: copy.meetingSteps("blocked_send", t),
      buttons: resendButtons(c),
      artifacts_preview: artifacts,
    });
    cards = [
      drafts.stateDraft(A, job.job_id, "in_progress", "waiting_input", "mail_refused", outcome.error.slice(0, 500)),
      ...drafts.cardDrafts(A, job.job_id, "job.progress", card),
    ];
  }
  return { events: [...pre, result, ...cards], effects: [] };
}
