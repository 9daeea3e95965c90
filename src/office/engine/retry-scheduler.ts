import type { Clock } from "../../shared/clock.js";
import { isAppError } from "../../shared/errors.js";
import type { ContextBuilder, EntityProfile } from "../context-builder.js";
import type { EmitContext } from "../emitter.js";
import type { JobCommand } from "../jobs/model.js";
import { ownCalls, owedAnswerWrites } from "../jobs/replies.js";
import type { JobView } from "../job-machine.js";
import { failureWeight, type CircuitBreaker } from "./retry-policy.js";
import type { ToolErrorCode } from "../tools/tool.js";

const BREAKER_WINDOW_MS = 5 * 60_000;

/**
 * Retry timers. Nothing here is remembered across a restart on purpose: the ledger holds each
 * failed attempt with its wait, so `rearm` re-derives every pending retry (and the breaker's
 * recent failures) on boot. A timer re-reads the job before acting, so a stale timer is harmless.
 */
export function createRetryScheduler(deps: {
  clock: Clock;
  context: ContextBuilder;
  breaker: CircuitBreaker;
  onError: (err: unknown, where: string) => void;
  withLock: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  jobKey: (t: string, j: string) => string;
  /** Decides a command for the job and carries it out (the job engine). */
  run: (job: JobView, agent: EntityProfile, cmd: JobCommand, ec: EmitContext) => Promise<{ ids: string[] }>;
}) {
  const { clock, context, withLock, jobKey } = deps;
  const timers = new Map<string, { cancel(): void; attempt: number }>();
  /** An invitee's answer's calendar write has its own timer, by answer: a job may owe several. */
  const answerTimers = new Map<string, { cancel(): void }>();
  /** Work started by timers or boot, so tests and shutdown can wait for it. */
  const inFlight = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    const t = p.catch(() => undefined).finally(() => inFlight.delete(t));
    inFlight.add(t);
  };

  function cancel(tenantId: string, jobId: string) {
    const k = jobKey(tenantId, jobId);
    timers.get(k)?.cancel();
    timers.delete(k);
  }

  function arm(tenantId: string, jobId: string, delayMs: number, attempt: number) {
    cancel(tenantId, jobId);
    const handle = clock.setTimeout(() => {
      timers.delete(jobKey(tenantId, jobId));
      track(runScheduledRetry(tenantId, jobId, attempt).catch((e) => deps.onError(e, "retry")));
    }, delayMs);
    timers.set(jobKey(tenantId, jobId), { ...handle, attempt });
  }

  /** Retry the calendar write of the answer `replyEventId` after `delayMs` (attempt n; none: whatever is owed). */
  function armAnswer(tenantId: string, jobId: string, replyEventId: string, delayMs: number, attempt?: number) {
    const k = `${jobKey(tenantId, jobId)}|${replyEventId}`;
    answerTimers.get(k)?.cancel();
    answerTimers.set(
      k,
      clock.setTimeout(() => {
        answerTimers.delete(k);
        track(
          withLock(jobKey(tenantId, jobId), async () => {
            const job = context.job(tenantId, jobId);
            const agent = job ? context.profile(tenantId, job.owner_entity_id) : undefined;
            if (!job || agent?.actor_type !== "agent") return;
            await deps.run(
              job,
              agent,
              { type: "answer_retry_due", reply_event_id: replyEventId, ...(attempt ? { attempt } : {}) },
              {
                tenant_id: tenantId,
                trace_id: job.trace_id,
                conversation_id: job.conversation_id,
                causation_id: job.last_event_id,
              },
            );
          }).catch((e) => deps.onError(e, "invite-replies.retry")),
        );
      }, delayMs),
    );
  }

  /** A timer fired: re-read the job from the ledger; the decider runs the attempt only if it is still due. */
  function runScheduledRetry(tenantId: string, jobId: string, attempt: number): Promise<string[]> {
    return withLock(jobKey(tenantId, jobId), async () => {
      const job = context.job(tenantId, jobId);
      const agent = job ? context.profile(tenantId, job.owner_entity_id) : undefined;
      if (!job || !agent) return [];
      const last = job.tools.at(-1);
      try {
        const r = await deps.run(
          job,
          agent,
          { type: "retry_due", attempt },
          {
            tenant_id: tenantId,
            trace_id: job.trace_id,
            conversation_id: job.conversation_id,
            causation_id: last?.result_event_id ?? job.last_event_id,
          },
        );
        return r.ids;
      } catch (e) {
        // Another process already recorded this attempt: its tool.called id is ours too.
        if (isAppError(e) && e.code === "DUPLICATE_EVENT_ID") return [];
        throw e;
      }
    });
  }

  /**
   * Boot: re-derive what was pending from the ledger. A retryable failure arms its retry at
   * (result time + delay); a tool.called with no result (the process died mid-call) is
   * resumed with the same call id and idempotency key.
   */
  function rearm(tenantIds: string[]): Array<{ tenant_id: string; job_id: string; due_in_ms: number }> {
    const armed: Array<{ tenant_id: string; job_id: string; due_in_ms: number }> = [];
    for (const t of tenantIds) {
      for (const jobId of new Set(context.allJobIds(t))) {
        // Only a job still running or one with a recent failure matters here; the summary says
        // which, so boot folds those few jobs instead of every job the tenant ever had.
        const summary = context.jobSummary(t, jobId);
        if (!summary) continue;
        // An invitee's answer whose calendar write was still owed when the process stopped is tried again now.
        if (summary.replied) {
          const job = context.job(t, jobId);
          for (const reply of job ? owedAnswerWrites(job) : []) armAnswer(t, jobId, reply.event_id, 0);
        }
        const recentFailure =
          summary.last_error_at !== undefined && clock.now() - Date.parse(summary.last_error_at) < BREAKER_WINDOW_MS;
        if (summary.state !== "in_progress" && !recentFailure) continue;
        const job = context.job(t, jobId);
        if (!job) continue;
        // The circuit breaker is memory; its recent failures are in the ledger, so boot refills it.
        for (const a of job.tools) {
          if (a.status !== "error" || !a.result_at || !a.provider || !a.error_code) continue;
          if (clock.now() - Date.parse(a.result_at) < BREAKER_WINDOW_MS)
            deps.breaker.record(
              t,
              a.provider,
              failureWeight(a.error_code as ToolErrorCode, 0),
              Date.parse(a.result_at),
            );
        }
        if (job.state !== "in_progress") continue;
        // An answer's calendar write is not the job's step: its retry is armed above.
        const last = ownCalls(job).at(-1);
        if (!last) continue;
        if (!last.status) {
          const agent = context.profile(t, job.owner_entity_id);
          if (agent) {
            track(
              withLock(jobKey(t, jobId), () =>
                deps.run(
                  job,
                  agent,
                  { type: "resume_call" },
                  {
                    tenant_id: t,
                    trace_id: job.trace_id,
                    conversation_id: job.conversation_id,
                    causation_id: last.called_event_id,
                  },
                ),
              ).catch((e) => deps.onError(e, "resume")),
            );
            armed.push({ tenant_id: t, job_id: jobId, due_in_ms: 0 });
          }
          continue;
        }
        if (last.status !== "error" || !last.retryable) continue;
        const delay = (last.suggested_wait_seconds ?? 0) * 1000;
        const due = Date.parse(last.result_at ?? job.updated_at) + delay;
        const inMs = Math.max(0, due - clock.now());
        arm(t, jobId, inMs, last.attempt + 1);
        armed.push({ tenant_id: t, job_id: jobId, due_in_ms: inMs });
      }
    }
    return armed;
  }

  return {
    arm,
    armAnswer,
    cancel,
    rearm,
    has: (t: string, j: string) => timers.has(jobKey(t, j)),
    async idle() {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
    stopAll() {
      for (const h of [...timers.values(), ...answerTimers.values()]) h.cancel();
      timers.clear();
      answerTimers.clear();
    },
  };
}
