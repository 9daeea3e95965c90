import { createHash } from "node:crypto";
import type { TArtifactRef, TCardButton } from "../../contracts/cards.js";
import type { MailConfig } from "../config.js";
import type { Clock } from "../shared/clock.js";
import type { Db } from "../shared/db.js";
import { AppError } from "../shared/errors.js";
import type { ArtifactStore } from "./artifact-store.js";
import { askButton, buildFinishedCard, buildTrackingCard, completedButtons, progressButtons, type CardContext } from "./cards.js";
import type { ContextBuilder } from "./context-builder.js";
import type { Draft, Emitter } from "./emitter.js";
import { agentActor, letterHash, MAIL_TOOL, toolCallId, type JobDrafts } from "./job-drafts.js";
import type { JobView } from "./job-machine.js";
import type { InviteMailer } from "./job-tool-run.js";
import { buildInviteMessage, createOutboxWorker, scrubAddresses, createSmtpTransport, type DeliveryOutcome, type MailTransport, type OutboxDelivery } from "./mail/index.js";
import { createOutboxStore } from "./mail/outbox-store.js";
import * as copy from "./narrator.js";
import type { CreateInviteOutput } from "./tools/calendar-create-invite.js";
import type { Vault } from "./vault.js";
import { formatSlot } from "./when/index.js";
import { inviteAttendees } from "./meeting-intake.js";

/**
 * A Message-ID is shaped like an address (`<obx_…@sender.domain>`), and the ledger takes no
 * address; it keeps the SHA-256 of the exact header value, which anyone holding the delivered
 * email can recompute. The Outbox screen shows the id itself.
 */
export const messageIdDigest = (messageId: string) => `sha256:${createHash("sha256").update(messageId, "utf8").digest("hex")}`;

/** mail.send in the tool catalog: run by the outbox worker, not the tool router. */
export const MAIL_TOOL_INFO = {
  name: MAIL_TOOL,
  version: "1.0.0",
  description: "Email a meeting invite (iMIP) to its attendees through the configured SMTP server.",
  side_effects: true,
} as const;

/**
 * Emailing a job's invite as a step of its own: `queueInvite` puts it in the outbox, the outbox
 * worker delivers it (retrying on 4xx and connection errors), and each delivery attempt is a
 * `mail.send` tool call in the ledger — `tool.called` before the SMTP conversation, `tool.result`
 * after it — followed by the card that says what happened: sent (the job completes), retrying,
 * or refused (the job waits for a person: Resend or Cancel).
 */
export function createJobMailer(deps: {
  db: Db;
  clock: Clock;
  vault: Vault;
  artifacts: ArtifactStore;
  context: ContextBuilder;
  emitter: Emitter;
  drafts: JobDrafts;
  withLock: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  jobKey: (tenantId: string, jobId: string) => string;
  mail?: MailConfig;
  /** Tests inject a transport; otherwise one is built from `mail`. */
  transport?: Pick<MailTransport, "send">;
  schedule?: readonly number[];
  onError: (err: unknown, where: string) => void;
}) {
  const { context, drafts } = deps;
  const store = createOutboxStore(deps.db, deps.clock);
  const transport = deps.transport ?? (deps.mail ? createSmtpTransport(deps.mail) : undefined);
  const from = deps.mail?.from;

  const idem = (jobId: string) => `idem:${jobId}:${MAIL_TOOL}:v1`;
  const outboxIdOf = (tenantId: string, jobId: string) => `obx_${letterHash(`${tenantId}|${jobId}|mail`, 20)}`;
  const inviteOf = (job: JobView) => job.tools.find((t) => t.tool_name === "calendar.create_invite" && t.status === "success");

  async function load(d: OutboxDelivery): Promise<{ job: JobView; agent: NonNullable<ReturnType<ContextBuilder["profile"]>> } | null> {
    const job = context.job(d.tenant_id, d.job_id);
    const agent = job ? context.profile(d.tenant_id, job.owner_entity_id) : undefined;
    return job && agent ? { job, agent } : null;
  }

  const ecOf = (job: JobView, causation?: string) => ({
    tenant_id: job.tenant_id,
    trace_id: job.trace_id,
    conversation_id: job.conversation_id,
    ...(causation ? { causation_id: causation } : {}),
  });

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
        purpose: `Email the invite to ${d.to_redacted}`,
        inputs: { to: d.to_redacted, subject: d.subject, outbox_id: d.outbox_id, attachment: "invite.ics", provider: "smtp" },
        pii_policy: { redactions_applied: ["to"], hashes_applied: [], raw_pii_stored: false },
        idempotency_key: idem(job.job_id),
        attempt,
        ...(prev && attempt > 1 ? { retry_of_tool_call_id: prev.tool_call_id } : {}),
      },
    };
  }

  /** Records the intent before the SMTP conversation; a resumed attempt already has it. */
  async function beforeAttempt(d: OutboxDelivery, attempt: number): Promise<void> {
    await deps.withLock(deps.jobKey(d.tenant_id, d.job_id), async () => {
      const loaded = await load(d);
      if (loaded?.job.state !== "in_progress") throw new AppError("CONFLICT", "The job is not running; the email waits.");
      const { job, agent } = loaded;
      if (job.tools.some((t) => t.tool_call_id === toolCallId(job.job_id, attempt, MAIL_TOOL))) return;
      await deps.emitter.emit(ecOf(job, job.last_event_id), [calledDraft(job, d, attempt, agent.entity_id)]);
    });
  }

  const errorCode = (o: Extract<DeliveryOutcome, { status: "retry" | "failed" }>) =>
    o.status === "failed" && o.code && o.code >= 500 ? "INVALID_INPUT" : o.code && o.code >= 400 ? "PROVIDER_RATE_LIMIT" : "PROVIDER_UNAVAILABLE";

  /** Records the outcome and the card that states it, every word from this result and the invite's. */
  async function afterAttempt(d: OutboxDelivery, attempt: number, outcome: DeliveryOutcome): Promise<void> {
    await deps.withLock(deps.jobKey(d.tenant_id, d.job_id), async () => {
      const loaded = await load(d);
      if (!loaded) return;
      const { job, agent } = loaded;
      const A = agent.entity_id;
      const callId = toolCallId(job.job_id, attempt, MAIL_TOOL);
      const pre: Draft[] = job.tools.some((t) => t.tool_call_id === callId) || job.state !== "in_progress" ? [] : [calledDraft(job, d, attempt, A)];
      if (!pre.length && !job.tools.some((t) => t.tool_call_id === callId)) return; // nothing was called for a job no longer running
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
                  ...(outcome.status === "retry" ? { suggested_wait_seconds: Math.max(1, Math.round((Date.parse(outcome.next_attempt_at) - deps.clock.now()) / 1000)) } : {}),
                },
              }),
          safety: { pii_leak_detected: false, redaction_summary: ["recipient addresses not stored raw"] },
          attempt,
          retryable: outcome.status === "retry",
        },
      };
      const invite = inviteOf(job);
      const facts = invite?.output ? `${copy.inviteFacts(invite.output as CreateInviteOutput, job.slots)} ` : "";
      const short = invite?.output ? `${copy.inviteFactsShort(invite.output as CreateInviteOutput)} ` : "";
      const artifacts: TArtifactRef[] = invite?.artifacts ?? [];
      const c = drafts.cardCtx(job, agent);
      const tz = (invite?.output as CreateInviteOutput | undefined)?.scheduled_time.timezone ?? "UTC";
      let cards: Draft[] = [];
      if (job.state === "in_progress" && outcome.status === "sent") {
        const finished = buildFinishedCard(c, {
          result: "completed",
          summary: `${facts}${copy.mailFacts({ kind: "sent", to: d.to_redacted, response: outcome.response })}`,
          artifacts,
          buttons: completedButtons(c),
        });
        cards = drafts.cardDrafts(A, job.job_id, "job.completed", finished);
      } else if (job.state === "in_progress" && outcome.status === "retry") {
        const card = buildTrackingCard(c, {
          state: "in_progress",
          status_line: `${short}${copy.mailFacts({ kind: "retrying", to: d.to_redacted, error: outcome.error, next_at: outcome.next_attempt_at, timezone: tz })}`.slice(0, 300),
          blockers: [outcome.error.slice(0, 300)],
          steps: copy.meetingSteps("send"),
          buttons: progressButtons(c),
          artifacts_preview: artifacts,
        });
        cards = drafts.cardDrafts(A, job.job_id, "job.progress", card);
      } else if (job.state === "in_progress" && outcome.status === "failed") {
        const card = buildTrackingCard(c, {
          state: "waiting_input",
          status_line: `${short}${copy.mailFacts({ kind: "refused", to: d.to_redacted, error: outcome.error })}`.slice(0, 300),
          blockers: [outcome.error.slice(0, 300)],
          waiting_on: approverOf(job),
          steps: copy.meetingSteps("blocked_send"),
          buttons: resendButtons(c),
          artifacts_preview: artifacts,
        });
        cards = [
          drafts.stateDraft(A, job.job_id, "in_progress", "waiting_input", "mail_refused", outcome.error.slice(0, 500)),
          ...drafts.cardDrafts(A, job.job_id, "job.progress", card),
        ];
      }
      await deps.emitter.emit(ecOf(job, job.last_event_id), [...pre, result, ...cards]);
    });
  }

  function approverOf(job: JobView) {
    const by = [...job.approvals].reverse().find((a) => a.action === "approved")?.by;
    return by ? [{ entity_id: by, display_name: context.profile(job.tenant_id, by)?.display_name ?? by }] : [];
  }

  const worker = createOutboxWorker({
    db: deps.db,
    clock: deps.clock,
    ...(transport ? { transport } : {}),
    ...(from ? { from } : {}),
    ...(deps.schedule ? { schedule: deps.schedule } : {}),
    recipients(row) {
      const refs = row.vaultRefs ? (JSON.parse(row.vaultRefs) as string[]) : row.toVaultRef ? [row.toVaultRef] : [];
      const to = refs.map((r) => deps.vault.get(row.tenantId, r)).filter((v): v is string => !!v);
      return to.length === refs.length && to.length ? to.map((email) => ({ name: "", email })) : null;
    },
    message(row, to) {
      const file = row.artifactId ? deps.artifacts.get(row.tenantId, row.artifactId) : null;
      if (!file) throw new AppError("NOT_FOUND", "The invite file is missing.");
      return buildInviteMessage({ outboxId: row.outboxId, from: from!, to, subject: row.subject, text: row.body, ics: file.bytes.toString("utf8") });
    },
    hooks: { beforeAttempt: (d, attempt) => beforeAttempt(d, attempt), afterAttempt },
    logger: { error: (obj, msg) => deps.onError(obj, msg ?? "outbox") },
  });

  const mailer: InviteMailer = {
    enabled: Boolean(transport && from),
    queueInvite(job: JobView, invite: CreateInviteOutput) {
      const email = job.slots.attendee_email;
      // Everyone the invite lists gets it: the attendee, and the person who asked when their address is known.
      const to = inviteAttendees(job.slots, job.slots.requested_by ? context.profile(job.tenant_id, job.slots.requested_by) : undefined);
      const when = formatSlot(Date.parse(invite.scheduled_time.start), Date.parse(invite.scheduled_time.end), invite.scheduled_time.timezone);
      const title = job.slots.title ?? job.title;
      deps.artifacts.enqueue({
        outbox_id: outboxIdOf(job.tenant_id, job.job_id),
        tenant_id: job.tenant_id,
        job_id: job.job_id,
        idempotency_key: idem(job.job_id),
        ...(email?.vault_ref ? { to_vault_ref: email.vault_ref } : {}),
        to_redacted:
          to
            .map((a) => a.email_redacted)
            .join(" and ")
            .slice(0, 200) ||
          (email?.redacted ?? ""),
        subject: `Invitation: ${title} — ${when}`.slice(0, 200),
        body: [
          `You are invited to “${title}”.`,
          `When: ${when}`,
          invite.meeting.url ? `Join: ${invite.meeting.url}` : `Where: ${invite.meeting.label}`,
          "The invite is attached; your calendar can add it with Accept.",
        ].join("\n"),
        artifact_id: invite.invite_artifact_id,
        ...(to.length ? { vault_refs: to.map((a) => a.vault_ref) } : {}),
        status: "queued",
      });
      worker.poke();
    },
  };

  return {
    mailer,
    start: () => worker.start(),
    stop: () => worker.stop(),
    idle: () => worker.idle(),
    list: (tenantId: string, jobId?: string) => worker.list(tenantId, jobId ? { jobId } : {}),
    /** The job's queued email is never sent once the job is cancelled. */
    cancelForJob(tenantId: string, jobId: string) {
      for (const row of store.list(tenantId, { jobId })) if (row.status === "queued" || row.status === "held") store.fail(row, "Not sent: the job was cancelled");
    },
    /** Resend the job's email now (after a refusal or while it waits for a retry). */
    resend(tenantId: string, jobId: string) {
      const r = worker.resend(tenantId, outboxIdOf(tenantId, jobId));
      if (!r.ok) throw new AppError("CONFLICT", r.message, { code: r.code });
      return r.delivery;
    },
    outboxIdOf,
    hasInvite: (job: JobView) => Boolean(inviteOf(job)),
  };
}

/** After the mail server refused the invite: Resend / Cancel / Ask in chat. */
function resendButtons(c: CardContext): TCardButton[] {
  const id = (n: string) => `btn_${n}_${c.card_id.replace(/^card_/, "")}`.slice(0, 128);
  return [
    { button_id: id("resend"), label: "Resend", style: "primary", action: { type: "job.retry", job_id: c.job_id } },
    {
      button_id: id("cancel"),
      label: "Cancel",
      style: "danger",
      confirm: { title: "Cancel this job?", body: "The invite will not be emailed. The .ics stays downloadable." },
      action: { type: "job.cancel", job_id: c.job_id },
    },
    askButton(c, "Why was the invite refused, and what can I do?"),
  ];
}
