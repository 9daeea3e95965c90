import type { LedgerApi } from "../ledger/index.js";
import type { Clock } from "../shared/clock.js";
import type { IdGenerator } from "../shared/ids.js";
import type { ContextBuilder } from "./context-builder.js";
import type { Emitter } from "./emitter.js";
import type { MailConfig } from "../config.js";
import type { Db } from "../shared/db.js";
import type { ArtifactStore } from "./artifact-store.js";
import { createJobDrafts } from "./job-drafts.js";
import { createJobMailer } from "./job-mail.js";
import type { MailTransport } from "./mail/index.js";
import { createNextStep } from "./job-next-step.js";
import { createJobProposals } from "./job-proposals.js";
import { createToolRun } from "./job-tool-run.js";
import type { JobSlots } from "./job-machine.js";
import { createMeetingIntake } from "./meeting-intake.js";
import { findPii } from "./pii.js";
import type { CircuitBreaker } from "./retry-policy.js";
import { createRetryScheduler } from "./retry-scheduler.js";
import type { ToolRouter } from "./tools/tool-router.js";
import type { Vault } from "./vault.js";

export { letterHash } from "./job-drafts.js";

/**
 * The Job Engine: every job transition Office makes, as batches of drafts handed to the
 * Emitter. A step is one append (all-or-nothing); a tool call is two — the intent
 * (`tool.called`) is durable before the side effect runs, the outcome follows it.
 * The parts live beside it: drafts (job-drafts), proposals (job-proposals), the next step of
 * a running job (job-next-step), a tool attempt (job-tool-run) and retry timers (retry-scheduler).
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
  /** Where outbox rows and invite files live (the mail step). */
  db: Db;
  artifacts: ArtifactStore;
  /** Outgoing mail; absent = invites are not emailed. */
  mail?: MailConfig;
  mailTransport?: Pick<MailTransport, "send">;
  mailSchedule?: readonly number[];
}

export function createJobEngine(deps: EngineDeps) {
  const { clock, ids, context } = deps;
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

  const drafts = createJobDrafts({ clock, ids });
  const proposals = createJobProposals({ ids, defaultTimezone: deps.defaultTimezone, drafts });
  const { approverOf, nextStep } = createNextStep({ context, router: deps.router, defaultTimezone: deps.defaultTimezone, drafts });

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

  const intake = createMeetingIntake({ vault: deps.vault, scrub: (t, text) => sanitizeText(t, text).text, defaultTimezone: deps.defaultTimezone });
  /** Planner or form values → ledger-safe slot changes, the time window resolved as of now. */
  const intakeSlots = (tenantId: string, update: Record<string, unknown>, prev: JobSlots = {}) => intake.intake(tenantId, update, prev, clock.now());

  const jobKey = (t: string, j: string) => `${t}|${j}`;
  const scheduler = createRetryScheduler({ clock, context, breaker: deps.breaker, onError: deps.onError, withLock, jobKey, runTool: (...a) => runTool(...a) });
  /**
   * Records the intent (prefix drafts + tool.called), runs the tool, records the outcome and
   * the job's next card. The tool.called id is derived from (job, attempt), so if two
   * processes race to the same retry the ledger refuses the second as a duplicate.
   */
  const mail = createJobMailer({
    db: deps.db,
    clock,
    vault: deps.vault,
    artifacts: deps.artifacts,
    context,
    emitter: deps.emitter,
    drafts,
    withLock,
    jobKey,
    ...(deps.mail ? { mail: deps.mail } : {}),
    ...(deps.mailTransport ? { transport: deps.mailTransport } : {}),
    ...(deps.mailSchedule ? { schedule: deps.mailSchedule } : {}),
    onError: deps.onError,
  });
  const runTool = createToolRun({
    mailer: mail.mailer,
    profileOf: (tenantId, entityId) => context.profile(tenantId, entityId),
    clock,
    ids,
    emitter: deps.emitter,
    router: deps.router,
    breaker: deps.breaker,
    schedule: deps.schedule,
    defaultTimezone: deps.defaultTimezone,
    drafts,
    approverOf,
    armRetry: (t, j, delayMs, attempt) => scheduler.arm(t, j, delayMs, attempt),
  });

  return {
    withLock,
    jobKey,
    cardCtx: drafts.cardCtx,
    cardDrafts: drafts.cardDrafts,
    stateDraft: drafts.stateDraft,
    textDraft: drafts.textDraft,
    sanitizeText,
    intakeSlots,
    proposeDrafts: proposals.proposeDrafts,
    formalizeCardFor: proposals.formalizeCardFor,
    nextStep,
    runTool,
    cancelTimer: (t: string, j: string) => scheduler.cancel(t, j),
    rearm: (tenantIds: string[]) => scheduler.rearm(tenantIds),
    approverOf,
    hasTimer: (t: string, j: string) => scheduler.has(t, j),
    mail,
    idle: async () => {
      await scheduler.idle();
      await mail.idle();
    },
    stopAll: () => {
      scheduler.stopAll();
      void mail.stop();
    },
  };
}

export type JobEngine = ReturnType<typeof createJobEngine>;
