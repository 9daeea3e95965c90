import { and, desc, eq, isNull, or } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { TJobReplyReceivedPayload, TStoredEvent } from "../../../contracts/events.js";
import { type HostLedgerApi, replayThenFollow } from "../../ledger/index.js";
import type { Clock } from "../../shared/clock.js";
import { isSqliteDb, type Db } from "../../shared/db.js";
import type { ContextBuilder, EntityProfile } from "../context-builder.js";
import type { EmitContext, EmitOptions } from "../emitter.js";
import { letterHash } from "../letter-hash.js";
import type { JobView } from "../job-machine.js";
import { messageIdDigest } from "../jobs/mail-step.js";
import type { JobCommand } from "../jobs/model.js";
import { MOVE_TOOL } from "../tools/calendar-change-invite.js";
import type { InboundMail } from "./imap-reader.js";
import { parseImipReply, type ImipReply, type RefusalReason } from "./imip-reply.js";
import type { InviteAttendee } from "../job-machine.js";
import { inviteAttendees } from "../intake/meeting-intake.js";
import { officeInboundMail } from "../schema.js";
import type { Vault } from "../vault/vault.js";

/**
 * Invitees' answers, from the organizer's mailbox to the job. Each mail the reader hands on is
 * recorded once (office_inbound_mail, by its mailbox key): either as the job's
 * `job.reply_received` — the invitation's UID names the job, the ATTENDEE is one it invited,
 * and the mail comes from that attendee's own address — or as a refusal with its reason (a
 * refusal is no job event). What an answer writes on its job — the `job.reply_received`, the
 * calendar write of the answer and the card that says both — is the job decider's
 * (`record_reply`, jobs/replies.ts), carried out by the job engine. Nothing in a mail can stop
 * the reader: every outcome is a row.
 */

export interface InviteRepliesDeps {
  ledger: HostLedgerApi;
  db: Db;
  clock: Clock;
  vault: Vault;
  context: ContextBuilder;
  /** Decides a command for the job and carries it out (the job engine's `run`; the caller holds the job's lock). */
  run: (job: JobView, agent: EntityProfile, cmd: JobCommand, ec: EmitContext, opts?: EmitOptions) => Promise<unknown>;
  withLock: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  jobKey: (tenantId: string, jobId: string) => string;
  maxBytes: number;
  /** Free text bound for the ledger with addresses and phone numbers moved to the vault. */
  scrub: (tenantId: string, text: string) => string;
  /** A replay that failed (a ledger whose reads answer later). */
  onError?: (err: unknown, where: string) => void;
}

export interface InboundRecord {
  key: string;
  status: "recorded" | "refused";
  reason?: RefusalReason;
  detail?: string;
  tenant_id?: string;
  job_id?: string;
  event_id?: string;
  received_at: string;
}

const INVITE_TOOL = "calendar.create_invite";

function toRecord(r: typeof officeInboundMail.$inferSelect): InboundRecord {
  return {
    key: r.key,
    status: r.status as InboundRecord["status"],
    received_at: r.receivedAt,
    ...(r.reason ? { reason: r.reason as RefusalReason } : {}),
    ...(r.detail ? { detail: r.detail } : {}),
    ...(r.tenantId ? { tenant_id: r.tenantId } : {}),
    ...(r.jobId ? { job_id: r.jobId } : {}),
    ...(r.eventId ? { event_id: r.eventId } : {}),
  };
}

export function createInviteReplies(deps: InviteRepliesDeps) {
  const { clock, context } = deps;
  const orm = drizzle(deps.db);
  /** event UID → its job, from the invite tool's recorded results (rebuilt from the ledger at start). */
  const byUid = new Map<string, { tenant_id: string; job_id: string }>();
  let unsubscribe: (() => void) | undefined;

  function index(e: TStoredEvent): void {
    // The invite, and each move of it: answers to the newest version land on the job that sent it.
    if (
      e.event_type !== "tool.result" ||
      (e.payload.tool_name !== INVITE_TOOL && e.payload.tool_name !== MOVE_TOOL) ||
      e.payload.status !== "success" ||
      !e.job_id
    )
      return;
    const uid = e.payload.output?.event_uid;
    if (typeof uid === "string") byUid.set(uid, { tenant_id: e.tenant_id, job_id: e.job_id });
  }

  function start(): void {
    if (unsubscribe) return;
    const followed = replayThenFollow(deps.ledger, index);
    if (!(followed instanceof Promise)) unsubscribe = followed;
    else {
      unsubscribe = () => void followed.then((u) => u());
      followed.catch((e) => deps.onError?.(e, "invite-replies.replay"));
    }
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = undefined;
  }

  /** Keeps a mail's row, through `tx` when it belongs to a ledger commit. */
  function record(row: InboundRecord & { message_id_sha256?: string }, tx: Db = deps.db): InboundRecord {
    (tx === deps.db ? orm : drizzle(tx))
      .insert(officeInboundMail)
      .values({
        key: row.key,
        status: row.status,
        receivedAt: row.received_at,
        ...(row.message_id_sha256 ? { messageIdSha256: row.message_id_sha256 } : {}),
        ...(row.tenant_id ? { tenantId: row.tenant_id } : {}),
        ...(row.job_id ? { jobId: row.job_id } : {}),
        ...(row.reason ? { reason: row.reason } : {}),
        ...(row.detail ? { detail: row.detail.slice(0, 300) } : {}),
        ...(row.event_id ? { eventId: row.event_id } : {}),
      })
      .onConflictDoNothing()
      .run();
    return row;
  }

  const refuse = (
    key: string,
    reason: RefusalReason,
    detail: string,
    extra: Partial<InboundRecord> & { message_id_sha256?: string } = {},
  ) => record({ key, status: "refused", reason, detail, received_at: clock.iso(), ...extra });

  /** Who the job invited, with their addresses read from the vault (for matching only). */
  function invited(job: JobView): Array<InviteAttendee & { email: string }> {
    const requester = job.slots.requested_by ? context.profile(job.tenant_id, job.slots.requested_by) : undefined;
    return inviteAttendees(job.slots, requester)
      .map((a) => ({ ...a, email: (deps.vault.get(job.tenant_id, a.vault_ref) ?? "").trim().toLowerCase() }))
      .filter((a) => a.email);
  }

  /** Records one mail from the mailbox: its answer on its job, or its refusal. Idempotent by `mail.key`. */
  async function handle(mail: InboundMail): Promise<InboundRecord> {
    const seen = orm.select().from(officeInboundMail).where(eq(officeInboundMail.key, mail.key)).get();
    if (seen) return toRecord(seen);
    if (!mail.raw)
      return refuse(mail.key, "too_large", `The mail is ${mail.size} bytes; at most ${deps.maxBytes} are read.`);
    const parsed = await parseImipReply(mail.raw, {
      maxBytes: deps.maxBytes,
      fallbackMessageId: `<${mail.key}@mailbox>`,
    });
    if (!parsed.ok)
      return refuse(
        mail.key,
        parsed.reason,
        parsed.detail,
        parsed.message_id ? { message_id_sha256: messageIdDigest(parsed.message_id) } : {},
      );
    const reply = parsed.reply;
    const digest = messageIdDigest(reply.message_id);
    const at = byUid.get(reply.uid);
    if (!at)
      return refuse(mail.key, "no_match", "No invitation sent from here has this UID.", { message_id_sha256: digest });
    const key = deps.jobKey(at.tenant_id, at.job_id);
    return deps.withLock(key, () => recordAnswer(mail.key, reply, digest, at));
  }

  async function recordAnswer(
    mailKey: string,
    reply: ImipReply,
    digest: string,
    at: { tenant_id: string; job_id: string },
  ): Promise<InboundRecord> {
    const ids = { tenant_id: at.tenant_id, job_id: at.job_id, message_id_sha256: digest };
    const job = context.job(at.tenant_id, at.job_id);
    if (!job) return refuse(mailKey, "no_match", "The invitation's job is gone.", ids);
    const who = invited(job).find((a) => a.email === reply.attendee_email);
    if (!who) return refuse(mailKey, "not_invited", "The answering attendee was not invited to this meeting.", ids);
    if (reply.from !== who.email)
      return refuse(mailKey, "spoofed_sender", "The mail does not come from the invited attendee's address.", ids);
    if (!["in_progress", "waiting_input", "completed"].includes(job.state) || job.handed_over)
      return refuse(
        mailKey,
        "job_closed",
        `The job is ${job.handed_over ? "handed over to a person" : job.state}; its answers are not recorded.`,
        ids,
      );
    const agent = context.profile(job.tenant_id, job.owner_entity_id);
    if (agent?.actor_type !== "agent")
      return refuse(mailKey, "job_closed", "The job has no agent to record the answer.", ids);
    const eventId = `evt_reply_${letterHash(`${job.job_id}|${digest}`, 20)}`;
    if ((job.replies ?? []).some((r) => r.message_id_sha256 === digest))
      return refuse(mailKey, "duplicate", "This answer was already recorded.", { ...ids, event_id: eventId });
    // The invitee's own words, without any address or number in them, and short.
    const comment = reply.comment
      ? deps
          .scrub(job.tenant_id, reply.comment)
          .replace(/[\r\n\t]+/g, " ")
          .trim()
          .slice(0, 280)
      : undefined;
    const payload: TJobReplyReceivedPayload = {
      job_id: job.job_id,
      event_uid: reply.uid,
      attendee: {
        name: who.name,
        email_redacted: who.email_redacted,
        ...(who.email_hash ? { email_hash: who.email_hash } : {}),
      },
      answer: reply.answer,
      ...(comment ? { comment } : {}),
      ...(reply.proposed
        ? {
            proposed: {
              start: new Date(reply.proposed.start).toISOString(),
              end: new Date(reply.proposed.end).toISOString(),
              timezone: reply.proposed.timezone,
            },
          }
        : {}),
      sequence: reply.sequence,
      message_id_sha256: digest,
    };
    const row: InboundRecord = {
      key: mailKey,
      status: "recorded",
      received_at: clock.iso(),
      ...ids,
      event_id: eventId,
    };
    // The decider writes the answer (and its calendar write and card); the mail's row is kept in the same commit.
    await deps.run(
      job,
      agent,
      { type: "record_reply", reply: payload, event_id: eventId, attendee: who },
      {
        tenant_id: job.tenant_id,
        trace_id: job.trace_id,
        conversation_id: job.conversation_id,
        causation_id: job.last_event_id,
      },
      // On PostgreSQL the mail's row stays in this process's SQLite file, written beside the commit.
      { withinCommit: (_, tx) => void record(row, isSqliteDb(tx) ? tx : deps.db) },
    );
    return row;
  }

  return {
    start,
    stop,
    handle,
    /** What the mailbox held, newest first (a tenant's own mails; refusals with no job are listed to no tenant). */
    list(tenantId: string, jobId?: string): InboundRecord[] {
      const rows = orm
        .select()
        .from(officeInboundMail)
        .where(
          jobId
            ? and(eq(officeInboundMail.tenantId, tenantId), eq(officeInboundMail.jobId, jobId))
            : eq(officeInboundMail.tenantId, tenantId),
        )
        .all();
      return rows.map(toRecord);
    },
    /**
     * Refused mails an admin of `tenantId` may see, newest first: those that matched one of the
     * tenant's jobs, and those that matched no job at all (the mailbox is the server's; such a
     * row holds no address and no content, only its reason).
     */
    refusals(tenantId: string, limit: number): InboundRecord[] {
      return orm
        .select()
        .from(officeInboundMail)
        .where(
          and(
            eq(officeInboundMail.status, "refused"),
            or(eq(officeInboundMail.tenantId, tenantId), isNull(officeInboundMail.tenantId)),
          ),
        )
        .orderBy(desc(officeInboundMail.receivedAt), desc(officeInboundMail.key))
        .limit(limit)
        .all()
        .map(toRecord);
    },
    /** Every mail recorded, refusals included (operators; tests). */
    all: (): InboundRecord[] => orm.select().from(officeInboundMail).all().map(toRecord),
  };
}
