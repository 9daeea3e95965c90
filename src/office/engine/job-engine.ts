import { AppError } from "../../shared/errors.js";
import type { HostLedgerApi } from "../../ledger/index.js";
import type { Clock } from "../../shared/clock.js";
import type { IdGenerator } from "../../shared/ids.js";
import type { ContextBuilder } from "../context-builder.js";
import type { Emitter } from "../emitter.js";
import type { MailConfig } from "../mail/settings.js";
import type { Db } from "../../shared/db.js";
import type { ArtifactStore } from "../artifact-store.js";
import { CALENDAR_TOOL, createJobDrafts, MAIL_TOOL } from "../job-drafts.js";
import { createJobMailer } from "../mail/job-mail.js";
import type { MailTransport } from "../mail/index.js";
import { createJobProposals } from "../job-proposals.js";
import { foldJob, type JobSlots, type JobView } from "../job-machine.js";
import { decide, decideOpen } from "../jobs/decide.js";
import { createMcpRunner } from "../jobs/mcp-runner.js";
import { mayUse } from "../mcp/agent-tools.js";
import type { McpHub } from "../mcp/hub.js";
import type { DecideContext, Decision, JobCommand, OpenCommand } from "../jobs/model.js";
import { meetingToolOf } from "../jobs/meeting-change.js";
import { priorUnknowns } from "../jobs/basics.js";
import type { EntityProfile } from "../context-builder.js";
import type { EmitContext, EmitOptions } from "../emitter.js";
import { invalidInputError } from "../governance-gate.js";
import { createMeetingIntake } from "../intake/meeting-intake.js";
import { vaultPii } from "../pii.js";
import { createJobLocks } from "./job-locks.js";
import { failureWeight, type CircuitBreaker } from "./retry-policy.js";
import { createRetryScheduler } from "./retry-scheduler.js";
import type { ToolRouter } from "../tools/tool-router.js";
import type { ToolErrorCode } from "../tools/tool.js";
import type { Vault } from "../vault/vault.js";
import { RECORD_ANSWER_TOOL } from "../tools/calendar-record-answer.js";

export { letterHash } from "../letter-hash.js";

/**
 * The Job Engine is the runner around the pure job decider (jobs/decide.ts): it gives a
 * command the job and the facts it needs, writes the decision's events in one append
 * (all-or-nothing) and carries out its effects — tool calls, retry timers, the mail outbox,
 * the circuit breaker. A tool call is two appends: the intent (`tool.called`) is durable
 * before the side effect runs, and the outcome is decided and written after it.
 */

export interface EngineDeps {
  ledger: HostLedgerApi;
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
  /** Where outbox rows and invite files live (the mail step). */
  db: Db;
  artifacts: ArtifactStore;
  /** Outgoing mail; absent = invites are not emailed. */
  mail?: MailConfig;
  mailTransport?: Pick<MailTransport, "send">;
  mailSchedule?: readonly number[];
  /** MCP servers' tools (absent: no MCP server is configured). */
  mcp?: McpHub;
  /** Whether an organizer calendar is connected (CALDAV_URL): invitees' answers are written to it. */
  calendarConnected?: boolean;
}

/** Commands a paused agent's job still takes: a person taking it over, an invitee's answer and its calendar write. */
const UNPAUSED = new Set<JobCommand["type"]>(["hand_over", "record_reply", "answer_retry_due"]);

export function createJobEngine(deps: EngineDeps) {
  const { clock, ids, context } = deps;

  const withLock = createJobLocks();

  const drafts = createJobDrafts({ clock, ids });
  const proposals = createJobProposals({ ids, defaultTimezone: deps.defaultTimezone, drafts });

  const sanitizeText = (tenantId: string, text: string) => vaultPii(deps.vault, tenantId, text);

  const intake = createMeetingIntake({
    vault: deps.vault,
    scrub: (t, text) => sanitizeText(t, text).text,
    defaultTimezone: deps.defaultTimezone,
  });
  /** Planner or form values → ledger-safe slot changes, the time window resolved as of now. */
  const intakeSlots = (tenantId: string, update: Record<string, unknown>, prev: JobSlots = {}) =>
    intake.intake(tenantId, update, prev, clock.now());

  const jobKey = (t: string, j: string) => `${t}|${j}`;
  const scheduler = createRetryScheduler({
    clock,
    context,
    breaker: deps.breaker,
    onError: deps.onError,
    withLock,
    jobKey,
    run: (...a) => run(...a),
  });
  const mail = createJobMailer({
    db: deps.db,
    clock,
    vault: deps.vault,
    artifacts: deps.artifacts,
    context,
    withLock,
    jobKey,
    run: (...a) => run(...a),
    ...(deps.mail ? { mail: deps.mail } : {}),
    ...(deps.mailTransport ? { transport: deps.mailTransport } : {}),
    ...(deps.mailSchedule ? { schedule: deps.mailSchedule } : {}),
    onError: deps.onError,
  });

  /** What a decision about `agent`'s job may read: now, ids, members, the tool and mail facts. */
  function decideContext(tenantId: string, agent: EntityProfile, job?: JobView): DecideContext {
    // A meeting job runs the invite tool, or the change tool its slots name (move, cancel).
    const name = job ? meetingToolOf(job.slots) : CALENDAR_TOOL;
    const tool = deps.router.get(name);
    if (!tool) throw new Error(`${name} is not registered`);
    const mailAllowed = mayUse(agent, MAIL_TOOL);
    const answerTool = deps.router.get(RECORD_ANSWER_TOOL);
    return {
      now: clock.iso(),
      ids,
      agent,
      defaultTimezone: deps.defaultTimezone,
      profileOf: (entityId) => context.profile(tenantId, entityId),
      calendar: { tool, allowed: mayUse(agent, name) },
      mail: mail.mailer.enabled ? (mailAllowed ? "send" : "not_allowed") : "not_configured",
      retrySchedule: deps.schedule,
      ...(deps.mcp ? { mcpTool: (name: string) => deps.mcp!.tool(name) } : {}),
      ...(answerTool
        ? {
            answers: {
              tool: answerTool,
              calendar: !deps.calendarConnected
                ? "not_connected"
                : mayUse(agent, RECORD_ANSWER_TOOL)
                  ? "write"
                  : "not_allowed",
            },
          }
        : {}),
    };
  }

  const mcpRunner = deps.mcp
    ? createMcpRunner({
        router: deps.router,
        vault: deps.vault,
        artifacts: deps.artifacts,
        now: () => clock.now(),
        scrub: (t, text) => sanitizeText(t, text).text,
        apply: (t, jobId, agent, cmd, ec) =>
          withLock(jobKey(t, jobId), async () => {
            const job = context.job(t, jobId);
            if (job) await carryOut(job, agent, decide(job, cmd, decideContext(t, agent, job)), ec);
          }),
        onError: deps.onError,
      })
    : undefined;

  /** A job's birth (a proposal, or a tool job a person asked for with /run), decided and carried out. */
  async function open(
    agent: EntityProfile,
    cmd: OpenCommand,
    ec: EmitContext,
  ): Promise<Decision & { job_id: string; ids: string[] }> {
    const decision = decideOpen(cmd, decideContext(cmd.at.tenant_id, agent));
    const job = foldJob(
      decision.events.map((e) => ({ ...e, tenant_id: cmd.at.tenant_id, trace_id: ec.trace_id })),
    ) as JobView;
    return { ...decision, ids: await carryOut(job, agent, decision, ec) };
  }

  /** Decide `cmd` for the job and carry the decision out (the caller holds the job's lock). */
  async function run(
    job: JobView,
    agent: EntityProfile,
    cmd: JobCommand,
    ec: EmitContext,
    opts?: EmitOptions,
  ): Promise<Decision & { ids: string[] }> {
    // A paused or removed agent's jobs wait, with nothing written, until an admin resumes it
    // (a person may still take one over: that is how a paused agent's work moves on).
    const now = context.profile(job.tenant_id, agent.entity_id) ?? agent;
    // An invitee's answer is a fact from outside, recorded (and written to the calendar) as before a pause.
    if ((now.paused || now.status) && !UNPAUSED.has(cmd.type)) {
      throw new AppError(
        "CONFLICT",
        `${now.display_name} is ${now.status ?? "paused"}: an admin can resume it from the Admin screen, or a person can take this job.`,
        {
          agent_entity_id: now.entity_id,
        },
      );
    }
    const decision = decide(job, cmd, decideContext(job.tenant_id, agent, job));
    return { ...decision, ids: await carryOut(job, agent, decision, ec, opts) };
  }

  /**
   * Effects in order: cancellations before the events are written (nothing stale fires after a
   * pause or a cancel), the events in one append, then the rest. A tool's outcome is decided
   * against the job the decision ran it for and carried out the same way.
   */
  async function carryOut(
    job: JobView,
    agent: EntityProfile,
    decision: Decision,
    ec: EmitContext,
    opts?: EmitOptions,
  ): Promise<string[]> {
    const t = job.tenant_id;
    for (const e of decision.effects) {
      if (e.type === "cancel_retry") scheduler.cancel(t, job.job_id);
      else if (e.type === "cancel_mail") mail.cancelForJob(t, job.job_id);
      else if (e.type === "abort_call") mcpRunner?.abort(t, job.job_id);
    }
    const written = decision.events.length ? await deps.emitter.emit(ec, decision.events, opts) : [];
    if (decision.refusal) throw invalidInputError(decision.refusal.fields, { emitted_event_ids: written });
    const out = [...written];
    for (const e of decision.effects) {
      switch (e.type) {
        case "run_tool": {
          const { call } = e;
          if (call.provider.startsWith("mcp:")) {
            // An MCP call runs outside the job's lock (Cancel must reach it); its outcome comes back as a command.
            if (!mcpRunner) throw new Error("no MCP servers are configured");
            mcpRunner.launch(
              e.job,
              agent,
              call,
              { ...ec, causation_id: written.at(-1) ?? `evt_${call.call_id}` },
              (ok) => {
                if (ok) deps.breaker.reset(t, call.provider);
                else deps.breaker.record(t, call.provider, 1);
                return !ok && deps.breaker.isOpen(t, call.provider);
              },
            );
            break;
          }
          const outcome = await deps.router.execute(call.tool_name, call.input, {
            tenant_id: t,
            job_id: e.job.job_id,
            idempotency_key: call.idempotency_key,
            attempt: call.attempt,
            now: clock.now(),
          });
          if (!outcome.ok)
            deps.breaker.record(
              t,
              call.provider,
              failureWeight(outcome.error.error_code as ToolErrorCode, priorUnknowns(e.job, call.call_id)),
            );
          const cmd: JobCommand = {
            type: "record_outcome",
            call,
            outcome,
            breaker_open: !outcome.ok && deps.breaker.isOpen(t, call.provider),
          };
          // A person may have taken the job over during the call (a hand-over does not wait for
          // the job's lock): the decider is told, and records the outcome for its new holder.
          const handed = context.job(t, e.job.job_id)?.handed_over;
          const job = handed ? { ...e.job, handed_over: handed } : e.job;
          const decided = decide(job, cmd, decideContext(t, agent, job));
          out.push(
            ...(await carryOut(job, agent, decided, { ...ec, causation_id: written.at(-1) ?? `evt_${call.call_id}` })),
          );
          break;
        }
        case "run_answer_write": {
          const { call } = e;
          const outcome = await deps.router.execute(call.tool_name, call.input, {
            tenant_id: t,
            job_id: e.job.job_id,
            idempotency_key: call.idempotency_key,
            attempt: call.attempt,
            now: clock.now(),
          });
          // Decided against the job as it is now: a person may have taken it over during the write.
          const now = context.job(t, e.job.job_id) ?? e.job;
          const decided = decide(
            now,
            { type: "record_answer_outcome", reply_event_id: e.reply_event_id, call, outcome },
            decideContext(t, agent, now),
          );
          out.push(
            ...(await carryOut(now, agent, decided, { ...ec, causation_id: written.at(-1) ?? `evt_${call.call_id}` })),
          );
          break;
        }
        case "arm_answer_retry":
          scheduler.armAnswer(t, job.job_id, e.reply_event_id, e.delay_ms, e.attempt);
          break;
        case "tell_earlier_versions":
          out.push(...(await tellEarlierVersions(t, job.job_id, ec)));
          break;
        case "cancel_retry_after":
          scheduler.cancel(t, job.job_id);
          break;
        case "reset_breaker":
          deps.breaker.reset(t, e.provider);
          break;
        case "arm_retry":
          scheduler.arm(t, job.job_id, e.delay_ms, e.attempt);
          break;
        case "queue_invite":
          mail.mailer.queueInvite(e.job, e.invite);
          break;
        case "resend_mail":
          mail.resend(t, job.job_id);
          break;
        default:
          break;
      }
    }
    return out;
  }

  /**
   * A move or cancel finished: each job that booked an earlier version of the meeting (its
   * parent, and the parent's parent while that one was itself a change) gets the Finished
   * card's words as a `meeting_changed`, decided by its own agent.
   */
  async function tellEarlierVersions(t: string, jobId: string, ec: EmitContext): Promise<string[]> {
    const change = context.job(t, jobId);
    const finished = change?.latest["job.finished"];
    if (!change || finished?.card_type !== "job.finished") return [];
    const cmd: JobCommand = {
      type: "meeting_changed",
      by_job_id: jobId,
      summary: finished.outcome.summary,
      cancelled: change.slots.change?.kind === "cancel",
    };
    const out: string[] = [];
    const seen = new Set([jobId]);
    for (let id = change.parent_job_id; id && !seen.has(id); ) {
      seen.add(id);
      const earlier = context.job(t, id);
      const agent = earlier ? context.profile(t, earlier.owner_entity_id) : undefined;
      if (!earlier) break;
      if (agent?.actor_type === "agent") {
        const decided = decide(earlier, cmd, decideContext(t, agent, earlier));
        // Caused by the message that offered the change's Finished card.
        const cause = change.card_events.get(finished.card_id) ?? ec.causation_id;
        out.push(
          ...(await carryOut(earlier, agent, decided, {
            ...ec,
            conversation_id: earlier.conversation_id,
            ...(cause ? { causation_id: cause } : {}),
          })),
        );
      }
      id = earlier.slots.change ? earlier.parent_job_id : undefined;
    }
    return out;
  }

  return {
    withLock,
    jobKey,
    textDraft: drafts.textDraft,
    sanitizeText,
    /** Any text into the vault (a tool's exact arguments): its reference. */
    vaultText: (tenantId: string, text: string) => deps.vault.put(tenantId, "text", text).vault_ref,
    intakeSlots,
    formalizeCardFor: proposals.formalizeCardFor,
    run,
    open,
    rearm: (tenantIds: string[]) => scheduler.rearm(tenantIds),
    hasTimer: (t: string, j: string) => scheduler.has(t, j),
    mail,
    idle: async () => {
      await scheduler.idle();
      await mail.idle();
      await mcpRunner?.idle();
    },
    stopAll: () => {
      scheduler.stopAll();
      void mail.stop();
    },
  };
}

export type JobEngine = ReturnType<typeof createJobEngine>;
