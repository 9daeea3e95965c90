import type { MailConfig } from "./settings.js";
import type { Clock } from "../../shared/clock.js";
import type { Db } from "../../shared/db.js";
import { AppError } from "../../shared/errors.js";
import type { ArtifactStore } from "../artifact-store.js";
import type { ContextBuilder, EntityProfile } from "../context-builder.js";
import type { EmitContext } from "../emitter.js";
import { MAIL_TOOL } from "../job-drafts.js";
import { letterHash } from "../letter-hash.js";
import type { JobView } from "../job-machine.js";
import { mailIdempotencyKey } from "../jobs/mail-step.js";
import type { JobCommand } from "../jobs/model.js";
import {
  buildInviteMessage,
  createOutboxWorker,
  createSmtpTransport,
  type DeliveryOutcome,
  type MailTransport,
  type OutboxDelivery,
} from "./index.js";
import { createOutboxStore } from "./outbox-store.js";
import type { CreateInviteOutput } from "../tools/calendar-create-invite.js";
import type { Vault } from "../vault/vault.js";
import { formatSlot } from "../when/index.js";
import { inviteAttendees } from "../intake/meeting-intake.js";
import { words } from "../speak.js";
import { versionOutput } from "../jobs/meeting-change.js";

/** Emails an invite the calendar tool created; `enabled` is false when mail is not configured. */
interface InviteMailer {
  readonly enabled: boolean;
  /** Queues the job's invite for delivery (once per job); its mail.send calls are recorded as they happen. */
  queueInvite(job: JobView, invite: CreateInviteOutput): void;
}

/** mail.send in the tool catalog: run by the outbox worker, not the tool router. */
export const MAIL_TOOL_INFO = {
  name: MAIL_TOOL,
  version: "1.0.0",
  description: "Email a meeting invite (iMIP) to its attendees through the configured SMTP server.",
  side_effects: true,
} as const;

/**
 * Emailing a job's invite as a step of its own: `queueInvite` puts it in the outbox, the outbox
 * worker delivers it (retrying on 4xx and connection errors), and around each delivery attempt
 * the job engine decides and records a `mail.send` call (jobs/mail-step.ts): the intent before
 * the SMTP conversation, the result and the card that states it after.
 */
export function createJobMailer(deps: {
  db: Db;
  clock: Clock;
  vault: Vault;
  artifacts: ArtifactStore;
  context: ContextBuilder;
  withLock: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  jobKey: (tenantId: string, jobId: string) => string;
  mail?: MailConfig;
  /** Tests inject a transport; otherwise one is built from `mail`. */
  transport?: Pick<MailTransport, "send">;
  schedule?: readonly number[];
  onError: (err: unknown, where: string) => void;
  /** Decides a command for the job and carries it out (the job engine). */
  run: (job: JobView, agent: EntityProfile, cmd: JobCommand, ec: EmitContext) => Promise<unknown>;
}) {
  const { context } = deps;
  const store = createOutboxStore(deps.db, deps.clock);
  const transport = deps.transport ?? (deps.mail ? createSmtpTransport(deps.mail) : undefined);
  const from = deps.mail?.from;

  const outboxIdOf = (tenantId: string, jobId: string) => `obx_${letterHash(`${tenantId}|${jobId}|mail`, 20)}`;

  function load(d: OutboxDelivery): { job: JobView; agent: NonNullable<ReturnType<ContextBuilder["profile"]>> } | null {
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

  /** Records the intent before the SMTP conversation; a resumed attempt already has it. */
  async function beforeAttempt(d: OutboxDelivery, attempt: number): Promise<void> {
    await deps.withLock(deps.jobKey(d.tenant_id, d.job_id), async () => {
      const loaded = load(d);
      if (!loaded) throw new AppError("CONFLICT", "The job is not running; the email waits.");
      await deps.run(
        loaded.job,
        loaded.agent,
        { type: "mail_attempt", delivery: d, attempt },
        ecOf(loaded.job, loaded.job.last_event_id),
      );
    });
  }

  /** Records the outcome and the card that states it (the decider words it from this result and the invite's). */
  async function afterAttempt(d: OutboxDelivery, attempt: number, outcome: DeliveryOutcome): Promise<void> {
    await deps.withLock(deps.jobKey(d.tenant_id, d.job_id), async () => {
      const loaded = load(d);
      if (!loaded) return;
      await deps.run(
        loaded.job,
        loaded.agent,
        { type: "mail_outcome", delivery: d, attempt, outcome },
        ecOf(loaded.job, loaded.job.last_event_id),
      );
    });
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
      const ics = file.bytes.toString("utf8");
      // A cancellation is sent as what it is: the Content-Type's method equals the calendar's.
      const method = /^METHOD:CANCEL\r?$/m.test(ics)
        ? "CANCEL"
        : /^METHOD:DECLINECOUNTER\r?$/m.test(ics)
          ? "DECLINECOUNTER"
          : "REQUEST";
      return buildInviteMessage({
        outboxId: row.outboxId,
        from: from!,
        to,
        subject: row.subject,
        text: row.body,
        ics,
        method,
      });
    },
    hooks: { beforeAttempt: (d, attempt) => beforeAttempt(d, attempt), afterAttempt },
    logger: { error: (obj, msg) => deps.onError(obj, msg ?? "outbox") },
  });

  const mailer: InviteMailer = {
    enabled: Boolean(transport && from),
    queueInvite(job: JobView, invite: CreateInviteOutput) {
      const email = job.slots.attendee_email;
      // Everyone the invite lists gets it: the attendee, and the person who asked when their address is known.
      const everyone = inviteAttendees(
        job.slots,
        job.slots.requested_by ? context.profile(job.tenant_id, job.slots.requested_by) : undefined,
      );
      // A DECLINECOUNTER answers the one invitee who proposed another time.
      const counter = job.slots.change?.counter?.attendee;
      const to = counter ? everyone.filter((a) => a.email_hash === counter.email_hash) : everyone;
      // Written in the language of the person who asked for the meeting (the job keeps it).
      const lang = job.slots.locale;
      const t = words(lang);
      const when = formatSlot(
        Date.parse(invite.scheduled_time.start),
        Date.parse(invite.scheduled_time.end),
        invite.scheduled_time.timezone,
        lang,
      );
      const title = job.slots.title ?? job.title;
      const change = job.slots.change?.kind;
      const was = job.slots.change
        ? formatSlot(
            Date.parse(job.slots.change.previous.start),
            Date.parse(job.slots.change.previous.end),
            job.slots.change.previous.timezone,
            lang,
          )
        : "";
      const place = invite.meeting.url
        ? t("office.invite.join", { url: invite.meeting.url })
        : t("office.invite.where", { place: invite.meeting.label });
      deps.artifacts.enqueue({
        outbox_id: outboxIdOf(job.tenant_id, job.job_id),
        tenant_id: job.tenant_id,
        job_id: job.job_id,
        idempotency_key: mailIdempotencyKey(job.job_id),
        ...(email?.vault_ref ? { to_vault_ref: email.vault_ref } : {}),
        to_redacted:
          to
            .map((a) => a.email_redacted)
            .join(t("office.invite.and"))
            .slice(0, 200) ||
          (email?.redacted ?? ""),
        subject: t(change ? `office.change.mail.subject.${change}` : "office.invite.subject", { title, when }).slice(
          0,
          200,
        ),
        body: (change === "move"
          ? [
              t("office.change.mail.moved", { title, was }),
              t("office.invite.when", { when }),
              place,
              t("office.invite.attached"),
            ]
          : change === "cancel"
            ? [t("office.change.mail.cancelled", { title, was }), t("office.change.mail.cancelAttached")]
            : change === "keep"
              ? [t("office.change.mail.kept", { title, was }), place]
              : [
                  t("office.invite.invited", { title }),
                  t("office.invite.when", { when }),
                  place,
                  t("office.invite.attached"),
                ]
        ).join("\n"),
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
      for (const row of store.list(tenantId, { jobId }))
        if (row.status === "queued" || row.status === "held") store.fail(row, "Not sent: the job was cancelled");
    },
    /** Resend the job's email now (after a refusal or while it waits for a retry). */
    resend(tenantId: string, jobId: string) {
      const r = worker.resend(tenantId, outboxIdOf(tenantId, jobId));
      if (!r.ok) throw new AppError("CONFLICT", r.message, { code: r.code });
      return r.delivery;
    },
    outboxIdOf,
    hasInvite: (job: JobView) => Boolean(versionOutput(job)),
  };
}

/** After the mail server refused the invite: Resend / Cancel / Ask in chat. */
