import type { TArtifactRef } from "../../contracts/cards.js";
import type { Clock } from "../shared/clock.js";
import type { IdGenerator } from "../shared/ids.js";
import { authButtons, buildFinishedCard, buildTrackingCard, completedButtons, failedButtons, progressButtons, retryButtons, trackingButtons } from "./cards.js";
import type { EntityProfile } from "./context-builder.js";
import type { Draft, EmitContext, Emitter } from "./emitter.js";
import { agentActor, CALENDAR_TOOL, MAIL_TOOL, toolCallId, type JobDrafts } from "./job-drafts.js";
import type { JobView } from "./job-machine.js";
import * as copy from "./narrator.js";
import { decideAfterFailure, failureWeight, type CircuitBreaker } from "./retry-policy.js";
import type { ToolRouter } from "./tools/tool-router.js";
import type { ToolErrorCode } from "./tools/tool.js";
import type { CreateInviteOutput } from "./tools/calendar-create-invite.js";
import { meetingType } from "./tools/meeting-rooms.js";
import { parseWhen } from "./when/index.js";
import { inviteAttendees } from "./meeting-intake.js";

/** Emails an invite the calendar tool created; `enabled` is false when mail is not configured. */
export interface InviteMailer {
  readonly enabled: boolean;
  /** Queues the job's invite for delivery (once per job); its mail.send calls are recorded as they happen. */
  queueInvite(job: JobView, invite: CreateInviteOutput): void;
}

/**
 * One tool attempt of a job, recorded around the side effect: the intent (`tool.called`) is
 * durable before the tool runs, the outcome and the job's next card follow it.
 */
export function createToolRun(deps: {
  clock: Clock;
  ids: IdGenerator;
  emitter: Emitter;
  router: ToolRouter;
  breaker: CircuitBreaker;
  schedule: readonly number[];
  defaultTimezone: string;
  drafts: JobDrafts;
  approverOf: (job: JobView) => Array<{ entity_id: string; display_name: string }>;
  /** Schedules the next attempt of a retryable failure. */
  armRetry: (tenantId: string, jobId: string, delayMs: number, attempt: number) => void;
  /** Emails invites when mail is configured (the outbox worker records each mail.send). */
  mailer?: InviteMailer;
  /** A person's profile: the one who asked for a meeting is invited too when their address is known. */
  profileOf?: (tenantId: string, entityId: string) => EntityProfile | undefined;
}) {
  const { clock, ids, emitter, approverOf } = deps;
  const { cardCtx, cardDrafts, stateDraft } = deps.drafts;

  /** The tool's input from the job's slots: the structured window as recorded, never re-read from text. */
  function toolInput(job: JobView, agent: EntityProfile) {
    const s = job.slots;
    const timezone = s.timezone ?? deps.defaultTimezone;
    // Jobs recorded before windows were structured carry only the words: read them as of the job's start.
    const when = s.when ?? (s.time_window ? parseWhen(s.time_window, { now: Date.parse(job.created_at), timezone }) : null);
    const type = meetingType(s.meeting_link) ?? "jitsi";
    return {
      title: s.title ?? job.title.replace(/^Schedule\s+/i, "").replace(/^./, (m) => m.toUpperCase()),
      duration_minutes: s.duration_minutes ?? 30,
      when,
      meeting: { type, ...(s.link_label ? { label: s.link_label } : {}), ...(s.meeting_url?.vault_ref ? { url_ref: s.meeting_url.vault_ref } : {}) },
      organizer: { name: agent.display_name, entity_id: agent.entity_id },
      attendees: inviteAttendees(s, s.requested_by ? deps.profileOf?.(job.tenant_id, s.requested_by) : undefined),
      ...(s.notes ? { notes_hint: s.notes.slice(0, 300) } : {}),
    };
  }

  /**
   * Records the intent (prefix drafts + tool.called), runs the tool, records the outcome and
   * the job's next card. The tool.called id is derived from (job, attempt), so if two
   * processes race to the same retry the ledger refuses the second as a duplicate.
   */
  async function runTool(job: JobView, agent: EntityProfile, prefix: Draft[], ec: EmitContext, opts: { resumeCallId?: string } = {}): Promise<string[]> {
    const emitted: string[] = [];
    const input = toolInput(job, agent);
    const tool = deps.router.get(CALENDAR_TOOL)!;
    const attempt = opts.resumeCallId ? job.tools.at(-1)!.attempt : (job.tools.at(-1)?.attempt ?? 0) + 1;
    const callId = opts.resumeCallId ?? toolCallId(job.job_id, attempt);
    const prevCall = job.tools.at(-1);
    const idem = `idem:${job.job_id}:${tool.name}:${tool.version}`;
    const sanitized = tool.sanitize(input);
    if (!opts.resumeCallId) {
      const called: Draft = {
        event_type: "tool.called",
        event_id: `evt_${callId}`,
        actor: agentActor(agent.entity_id),
        job_id: job.job_id,
        payload: {
          tool_call_id: callId,
          tool_name: tool.name,
          tool_version: tool.version,
          purpose: tool.purpose(input),
          inputs: sanitized.inputs,
          pii_policy: { redactions_applied: sanitized.redactions_applied, hashes_applied: sanitized.hashes_applied, raw_pii_stored: false },
          idempotency_key: idem,
          attempt,
          ...(prevCall && attempt > 1 ? { retry_of_tool_call_id: prevCall.tool_call_id } : {}),
        },
      };
      // A person's action started this run: say so on a Tracking card before the call.
      const starting: Draft[] = [];
      if (prefix.length) {
        const pc = cardCtx(job, agent);
        const card = buildTrackingCard(pc, {
          state: "in_progress",
          status_line: "Creating invite…",
          steps: copy.meetingSteps("create"),
          buttons: progressButtons(pc),
        });
        starting.push({
          event_type: "job.progress",
          actor: agentActor(agent.entity_id),
          job_id: job.job_id,
          payload: { job_id: job.job_id, tracking_card: { ...card, progress: { ...card.progress, percent: 50, current_step: "create_invite" } } },
        });
      }
      emitted.push(...(await emitter.emit(ec, [...prefix, ...starting, called])));
    }
    const provider = tool.providerOf(input);
    const out = await deps.router.execute(tool.name, input, { tenant_id: job.tenant_id, job_id: job.job_id, idempotency_key: idem, attempt, now: clock.now() });
    const ec2: EmitContext = { ...ec, causation_id: emitted.at(-1) ?? `evt_${callId}` };
    const A = agent.entity_id;
    const c = cardCtx(job, agent);
    if (out.ok) {
      deps.breaker.reset(job.tenant_id, provider);
      const invite = out.output as CreateInviteOutput;
      const resultId = ids("evt");
      const withEvent: TArtifactRef[] = out.artifacts.map((a) => ({ ...a, event_id: resultId }));
      const resultDraft: Draft = {
        event_type: "tool.result",
        event_id: resultId,
        actor: agentActor(A),
        job_id: job.job_id,
        payload: {
          tool_call_id: callId,
          tool_name: tool.name,
          status: "success",
          latency_ms: out.latency_ms,
          output: out.output,
          artifacts: withEvent,
          safety: { pii_leak_detected: false, redaction_summary: ["attendee emails not stored raw"] },
          attempt,
          retryable: false,
        },
      };
      const mail = deps.mailer?.enabled ? (deps.router.isAllowed(agent.allowed_tools, MAIL_TOOL) ? "send" : "not_allowed") : "not_configured";
      if (mail === "send") {
        // The invite exists; the email is a step of its own (mail.send), delivered in the background.
        const card = buildTrackingCard(c, {
          state: "in_progress",
          status_line: `${copy.inviteFactsShort(invite)} ${copy.mailFacts({ kind: "queued", to: job.slots.attendee_email?.redacted ?? "the attendee" })}`.slice(0, 300),
          steps: copy.meetingSteps("send"),
          buttons: progressButtons(c),
          artifacts_preview: withEvent,
        });
        emitted.push(...(await emitter.emit(ec2, [resultDraft, ...cardDrafts(A, job.job_id, "job.progress", card)])));
        deps.mailer!.queueInvite(job, invite);
        return emitted;
      }
      const fc = cardCtx(job, agent);
      const finished = buildFinishedCard(fc, {
        result: "completed",
        summary: `${copy.inviteFacts(invite, job.slots)} ${copy.mailFacts({ kind: mail })}`,
        artifacts: withEvent,
        buttons: completedButtons(fc),
        next_actions: [
          {
            label: "Create follow-up job",
            suggested_action: { type: "job.follow_up", job_id: job.job_id, prompt_text: "Create a follow-up job related to this meeting (agenda, notes template, reminders)." },
          },
        ],
      });
      emitted.push(...(await emitter.emit(ec2, [resultDraft, ...cardDrafts(A, job.job_id, "job.completed", finished)])));
      return emitted;
    }

    const err = out.error;
    const priorUnknowns = job.tools.filter((t) => t.error_code === "UNKNOWN" && t.tool_call_id !== callId).length;
    deps.breaker.record(job.tenant_id, provider, failureWeight(err.error_code as ToolErrorCode, priorUnknowns));
    const decision = decideAfterFailure({
      code: err.error_code as ToolErrorCode,
      attempt,
      schedule: deps.schedule,
      breakerOpen: deps.breaker.isOpen(job.tenant_id, provider),
      ...(err.suggested_wait_seconds !== undefined ? { suggestedWaitSeconds: err.suggested_wait_seconds } : {}),
      priorUnknowns,
    });
    const resultDraft: Draft = {
      event_type: "tool.result",
      actor: agentActor(A),
      job_id: job.job_id,
      payload: {
        tool_call_id: callId,
        tool_name: tool.name,
        status: "error",
        latency_ms: out.latency_ms,
        error: decision.kind === "retry" ? { ...err, suggested_wait_seconds: Math.round(decision.delayMs / 1000) } : err,
        safety: { pii_leak_detected: false, redaction_summary: ["attendee emails not stored raw"] },
        attempt,
        retryable: decision.kind === "retry",
      },
    };
    const alt = copy.alternativeLink(job.slots.meeting_link);
    if (decision.kind === "retry") {
      const card = buildTrackingCard(c, {
        state: "in_progress",
        status_line: copy.retryStatus(err.error_code as ToolErrorCode, decision.delayMs),
        blockers: [err.message_safe],
        steps: copy.meetingSteps("retry"),
        buttons: retryButtons(c, alt),
        last_tool_call_id: callId,
      });
      emitted.push(...(await emitter.emit(ec2, [resultDraft, ...cardDrafts(A, job.job_id, "job.progress", card)])));
      deps.armRetry(job.tenant_id, job.job_id, decision.delayMs, decision.attempt);
      return emitted;
    }
    if (decision.kind === "wait_input") {
      const auth = decision.reason_code === "provider_auth_required";
      const fields: Record<string, string> = {};
      if (!auth) fields.time_window = err.message_safe;
      const schema = copy.meetingInputSchema(["attendee_email", "time_window"], job.slots, deps.defaultTimezone, {}, { time_window: job.slots.time_window });
      const card = buildTrackingCard(c, {
        state: "waiting_input",
        status_line: auth ? copy.AUTH_STATUS : copy.INVALID_STATUS,
        blockers: [err.message_safe],
        waiting_on: approverOf(job),
        steps: copy.meetingSteps("blocked_tool"),
        buttons: auth ? authButtons(c, alt) : trackingButtons(c, schema),
        last_tool_call_id: callId,
      });
      emitted.push(
        ...(await emitter.emit(ec2, [
          resultDraft,
          stateDraft(A, job.job_id, "in_progress", "waiting_input", decision.reason_code, err.message_safe),
          ...cardDrafts(A, job.job_id, "job.progress", card),
        ])),
      );
      return emitted;
    }
    const fc = cardCtx(job, agent);
    const finished = buildFinishedCard(fc, {
      result: "failed",
      summary: copy.EXHAUSTED_SUMMARY,
      failure_reason: err.message_safe,
      artifacts: [],
      buttons: failedButtons(fc, alt),
      next_actions: [{ label: "Try again later", suggested_action: { type: "job.retry", job_id: job.job_id } }],
    });
    emitted.push(
      ...(await emitter.emit(ec2, [
        resultDraft,
        stateDraft(
          A,
          job.job_id,
          "in_progress",
          "failed",
          decision.reason_code,
          decision.reason_code === "provider_circuit_open" ? "Calendar provider failed too often; stopped retrying." : "Calendar provider kept failing after retries.",
        ),
        ...cardDrafts(A, job.job_id, "job.completed", finished),
      ])),
    );
    return emitted;
  }

  return runTool;
}
