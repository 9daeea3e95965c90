import { blake3 } from "@noble/hashes/blake3.js";
import type { TArtifactRef, TFormalizeCard } from "../../contracts/cards.js";
import type { TActor } from "../../contracts/primitives.js";
import type { LedgerApi } from "../ledger/index.js";
import type { Clock } from "../shared/clock.js";
import type { IdGenerator } from "../shared/ids.js";
import { authButtons, buildFinishedCard, buildFormalizeCard, buildTrackingCard, completedButtons, failedButtons, INFO_SCHEMA, progressButtons, retryButtons, trackingButtons, type CardContext } from "./cards.js";
import type { ContextBuilder, EntityProfile } from "./context-builder.js";
import type { Draft, EmitContext, Emitter } from "./emitter.js";
import { missingMeetingInputs, type JobSlots, type JobView } from "./job-machine.js";
import * as copy from "./narrator.js";
import { findPii } from "./pii.js";
import { decideAfterFailure, failureWeight, type CircuitBreaker } from "./retry-policy.js";
import { createRetryScheduler } from "./retry-scheduler.js";
import type { ToolRouter } from "./tools/tool-router.js";
import type { ToolErrorCode } from "./tools/tool.js";
import type { Vault } from "./vault.js";

/**
 * The Job Engine: every job transition Office makes, as batches of drafts handed to the
 * Emitter. A step is one append (all-or-nothing); a tool call is two — the intent
 * (`tool.called`) is durable before the side effect runs, the outcome follows it.
 */

export interface EngineDeps {
  ledger: LedgerApi;
  clock: Clock;
  ids: IdGenerator;
  emitter: Emitter;
  context: ContextBuilder;
  router: ToolRouter;
  vault: Vault;
  breaker: CircuitBreaker;
  schedule: readonly number[];
  defaultTimezone: string;
  onError: (err: unknown, where: string) => void;
}

export const CALENDAR_TOOL = "calendar.create_invite";

export const agentActor = (id: string): TActor => ({ entity_id: id, actor_type: "agent" });

/** Letters-only digest: deterministic ids that no PII scanner can read as a phone number. */
export function letterHash(s: string, n = 16): string {
  const h = blake3(new TextEncoder().encode(s));
  let out = "";
  for (let i = 0; i < n; i++) out += String.fromCharCode(97 + (h[i]! % 26));
  return out;
}

export function toolCallId(jobId: string, attempt: number): string {
  return `tcall_${letterHash(jobId)}_a${attempt}`;
}

export function createJobEngine(deps: EngineDeps) {
  const { clock, ids, emitter, context } = deps;
  const locks = new Map<string, Promise<unknown>>();

  /** Serialises work on one job inside this process (clicks, timers and messages can race). */
  function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = locks.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    locks.set(key, tail);
    void tail.then(() => {
      if (locks.get(key) === tail) locks.delete(key);
    });
    return run;
  }

  function cardCtx(job: { job_id: string; tenant_id: string; conversation_id: string; title: string }, agent: EntityProfile): CardContext {
    const who = { entity_id: agent.entity_id, display_name: agent.display_name, actor_type: "agent" as const };
    return { card_id: ids("card"), job_id: job.job_id, tenant_id: job.tenant_id, conversation_id: job.conversation_id, now: clock.iso(), title: job.title, owner: who, author: who };
  }

  const cardDrafts = (agentId: string, jobId: string, type: "job.progress" | "job.completed" | "job.proposed", card: Record<string, unknown>): Draft[] => {
    const key = type === "job.progress" ? "tracking_card" : type === "job.completed" ? "finished_card" : "proposed_card";
    return [
      { event_type: type, actor: agentActor(agentId), job_id: jobId, payload: { job_id: jobId, [key]: card } },
      { event_type: "message.sent", actor: agentActor(agentId), job_id: jobId, payload: { message_id: ids("msg"), kind: "card", card } },
    ];
  };

  const stateDraft = (agentId: string, jobId: string, prev: string, next: string, reason_code: string, note?: string, extra: Record<string, unknown> = {}): Draft => ({
    event_type: "job.state_changed",
    actor: agentActor(agentId),
    job_id: jobId,
    payload: { job_id: jobId, prev_state: prev, next_state: next, reason_code, ...(note ? { note } : {}), ...extra },
  });

  const textDraft = (agentId: string, text: string, jobId?: string): Draft => ({
    event_type: "message.sent",
    actor: agentActor(agentId),
    ...(jobId ? { job_id: jobId } : {}),
    payload: { message_id: ids("msg"), kind: "text", body_text: text },
  });

  /** Free text bound for the ledger: emails and phones go to the vault, their redacted form stays. */
  function sanitizeText(tenantId: string, text: string): { text: string; refs: Array<{ redacted: string; hash: string; vault_ref: string }> } {
    // Replaced where each was found, so the same digits inside an id elsewhere stay intact.
    let out = "";
    let at = 0;
    const refs = [];
    for (const p of findPii(text)) {
      if (p.start < at) continue;
      const v = deps.vault.put(tenantId, p.kind, p.value);
      refs.push(v);
      out += text.slice(at, p.start) + v.redacted;
      at = p.end;
    }
    return { text: out + text.slice(at), refs };
  }

  function formalizeCardFor(
    job: { job_id: string; tenant_id: string; conversation_id: string; title: string },
    agent: EntityProfile,
    spec: { kind: "schedule_meeting" | "generic"; goal: string; slots: JobSlots; constraints?: string[]; parent_job_id?: string },
  ): TFormalizeCard {
    const c = cardCtx(job, agent);
    const s = spec.slots;
    const who = s.attendee_name?.split(/\s+/)[0];
    const meeting = spec.kind === "schedule_meeting";
    const inputs = meeting
      ? [
          { key: `${copy.slug(s.attendee_name)}_contact`, label: `${who ?? "Attendee"} email/contact`, ...(s.attendee_email ? { status: "provided" as const, value_preview: s.attendee_email.redacted } : { status: "missing" as const }) },
          { key: "time_window", label: "Preferred days/times", ...(s.time_window ? { status: "provided" as const, value_preview: s.time_window } : { status: "missing" as const }) },
          { key: "timezone", label: "Timezone confirmation", ...(s.timezone ? { status: "provided" as const, value_preview: s.timezone } : { status: "missing" as const, value_preview: `${deps.defaultTimezone}?` }) },
          { key: "meeting_link", label: "Meeting link type", ...(s.meeting_link ? { status: "provided" as const, value_preview: copy.LINK_OPTIONS.find((o) => o.value === s.meeting_link)?.label ?? s.meeting_link } : { status: "missing" as const, value_preview: "Google Meet?" }) },
        ]
      : [];
    const missing = inputs.some((i) => i.status === "missing");
    return buildFormalizeCard(
      c,
      {
        job_id: job.job_id,
        goal: spec.goal,
        priority: "normal",
        ...(inputs.length ? { inputs_needed: inputs } : {}),
        expected_outputs: meeting
          ? [
              { kind: "record", description: "Calendar event created" },
              { kind: "link", description: `Invite link sent to ${who ?? "the attendee"}` },
            ]
          : [{ kind: "message", description: "Outcome reported here" }],
        ...(spec.constraints?.length ? { constraints: spec.constraints } : {}),
        sla_hint: meeting ? (missing ? "ETA ~5 minutes after details" : "ETA ~5 minutes") : "ETA depends on the details",
        kind: spec.kind,
        slots: s,
      },
      {
        plan_hint: meeting ? [...(missing ? ["Collect missing details"] : []), "Create calendar invite", `Send invite to ${who ?? "the attendee"}`] : ["Confirm the details", "Do the work", "Report back here"],
        ...(spec.parent_job_id ? { parent_job_id: spec.parent_job_id } : {}),
      },
    );
  }

  /** job.created + job.proposed + its card message, for a new job. */
  function proposeDrafts(
    agent: EntityProfile,
    at: { tenant_id: string; conversation_id: string },
    spec: { title: string; kind: "schedule_meeting" | "generic"; goal: string; slots: JobSlots; constraints?: string[]; parent_job_id?: string },
  ): { job_id: string; drafts: Draft[] } {
    const job_id = ids("job");
    const job = { job_id, tenant_id: at.tenant_id, conversation_id: at.conversation_id, title: spec.title };
    const card = formalizeCardFor(job, agent, spec);
    return {
      job_id,
      drafts: [
        {
          event_type: "job.created",
          actor: agentActor(agent.entity_id),
          job_id,
          payload: { job_id, title: spec.title, conversation_id: at.conversation_id, owner_entity_id: agent.entity_id, ...(spec.parent_job_id ? { parent_job_id: spec.parent_job_id } : {}) },
        },
        ...cardDrafts(agent.entity_id, job_id, "job.proposed", card),
      ],
    };
  }

  const approverOf = (job: JobView) => {
    const by = [...job.approvals].reverse().find((a) => a.action === "approved")?.by;
    const p = by ? context.profile(job.tenant_id, by) : undefined;
    return by ? [{ entity_id: by, display_name: p?.display_name ?? by }] : [];
  };

  /** The job is in_progress: either it still lacks inputs (→ waiting_input card) or its tool can run. */
  function nextStep(job: JobView, agent: EntityProfile): { drafts: Draft[]; run: boolean } {
    if (job.kind === "generic") {
      const c = cardCtx(job, agent);
      const card = buildTrackingCard(c, {
        state: "waiting_input",
        status_line: "I have no tool for this kind of work yet. Add details, hand it to a person, or cancel.",
        blockers: ["No tool available for this job"],
        waiting_on: approverOf(job),
        steps: [
          { key: "confirm", label: "Confirm the details", state: "done" },
          { key: "do_work", label: "Do the work", state: "blocked" },
        ],
        buttons: trackingButtons(c, INFO_SCHEMA),
      });
      return { drafts: [stateDraft(agent.entity_id, job.job_id, "in_progress", "waiting_input", "no_tool_available", "No tool can do this job."), ...cardDrafts(agent.entity_id, job.job_id, "job.progress", card)], run: false };
    }
    const missing = missingMeetingInputs(job.slots);
    if (missing.length) {
      const c = cardCtx(job, agent);
      const card = buildTrackingCard(c, {
        state: "waiting_input",
        status_line: copy.waitingStatus(missing, job.slots),
        waiting_on: approverOf(job),
        steps: copy.meetingSteps("collect"),
        buttons: trackingButtons(c, copy.meetingInputSchema(missing, job.slots, deps.defaultTimezone)),
      });
      return {
        drafts: [stateDraft(agent.entity_id, job.job_id, "in_progress", "waiting_input", "missing_required_inputs", "Need contact + preferred times before creating invite."), ...cardDrafts(agent.entity_id, job.job_id, "job.progress", card)],
        run: false,
      };
    }
    if (!deps.router.isAllowed(agent.allowed_tools, CALENDAR_TOOL)) {
      const c = cardCtx(job, agent);
      const card = buildTrackingCard(c, {
        state: "waiting_input",
        status_line: `I’m not allowed to use ${CALENDAR_TOOL}. An admin can allow it, or a person can take this job.`,
        blockers: [`Tool not allowed: ${CALENDAR_TOOL}`],
        waiting_on: approverOf(job),
        steps: copy.meetingSteps("blocked_tool"),
        buttons: trackingButtons(c, INFO_SCHEMA),
      });
      return { drafts: [stateDraft(agent.entity_id, job.job_id, "in_progress", "waiting_input", "tool_not_allowed", `${CALENDAR_TOOL} is not in this agent’s allowed tools.`), ...cardDrafts(agent.entity_id, job.job_id, "job.progress", card)], run: false };
    }
    return { drafts: [], run: true };
  }

  function toolInput(job: JobView, agent: EntityProfile) {
    const s = job.slots;
    const email = s.attendee_email!;
    return {
      title: s.title ?? job.title.replace(/^Schedule\s+/i, "").replace(/^./, (m) => m.toUpperCase()),
      duration_minutes: s.duration_minutes ?? 30,
      time_window: s.time_window!,
      ...(s.day_hint ? { day_hint: s.day_hint } : {}),
      timezone: s.timezone!,
      meeting_link: s.meeting_link!,
      organizer: { name: agent.display_name, entity_id: agent.entity_id },
      attendees: [{ name: s.attendee_name ?? "Guest", vault_ref: email.vault_ref ?? "", email_redacted: email.redacted, email_hash: email.hash ?? "" }],
      ...(s.notes ? { notes_hint: s.notes.slice(0, 300) } : {}),
    };
  }

  const jobKey = (t: string, j: string) => `${t}|${j}`;
  const scheduler = createRetryScheduler({ clock, context, breaker: deps.breaker, onError: deps.onError, withLock, jobKey, runTool: (...a) => runTool(...a) });

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
        starting.push({ event_type: "job.progress", actor: agentActor(agent.entity_id), job_id: job.job_id, payload: { job_id: job.job_id, tracking_card: { ...card, progress: { ...card.progress, percent: 50, current_step: "create_invite" } } } });
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
      const sched = out.output.scheduled_time as { start: string; end: string; timezone: string };
      const artifacts: TArtifactRef[] = out.artifacts;
      const resultId = ids("evt");
      const withEvent = artifacts.map((a) => ({ ...a, event_id: resultId }));
      const fc = cardCtx(job, agent);
      const finished = buildFinishedCard(fc, {
        result: "completed",
        summary: copy.completedSummary(job.slots, sched.start, sched.end, sched.timezone),
        artifacts: withEvent,
        buttons: completedButtons(fc),
        next_actions: [{ label: "Create follow-up job", suggested_action: { type: "job.follow_up", job_id: job.job_id, prompt_text: "Create a follow-up job related to this meeting (agenda, notes template, reminders)." } }],
      });
      emitted.push(
        ...(await emitter.emit(ec2, [
          {
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
          },
          ...cardDrafts(A, job.job_id, "job.completed", finished),
        ])),
      );
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
      scheduler.arm(job.tenant_id, job.job_id, decision.delayMs, decision.attempt);
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
        ...(await emitter.emit(ec2, [resultDraft, stateDraft(A, job.job_id, "in_progress", "waiting_input", decision.reason_code, err.message_safe), ...cardDrafts(A, job.job_id, "job.progress", card)])),
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
        stateDraft(A, job.job_id, "in_progress", "failed", decision.reason_code, decision.reason_code === "provider_circuit_open" ? "Calendar provider failed too often; stopped retrying." : "Calendar provider kept failing after retries."),
        ...cardDrafts(A, job.job_id, "job.completed", finished),
      ])),
    );
    return emitted;
  }

  return {
    withLock,
    jobKey,
    cardCtx,
    cardDrafts,
    stateDraft,
    textDraft,
    sanitizeText,
    proposeDrafts,
    formalizeCardFor,
    nextStep,
    runTool,
    cancelTimer: (t: string, j: string) => scheduler.cancel(t, j),
    rearm: (tenantIds: string[]) => scheduler.rearm(tenantIds),
    approverOf,
    hasTimer: (t: string, j: string) => scheduler.has(t, j),
    idle: () => scheduler.idle(),
    stopAll: () => scheduler.stopAll(),
  };
}

export type JobEngine = ReturnType<typeof createJobEngine>;
