import { and, desc, eq, isNull, or } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { TJobReplyReceivedPayload, TStoredEvent } from "../../contracts/events.js";
import type { LedgerApi } from "../ledger/index.js";
import type { Clock } from "../shared/clock.js";
import type { Db } from "../shared/db.js";
import type { IdGenerator } from "../shared/ids.js";
import { buildFinishedCard, completedButtons, counterButtons } from "./cards.js";
import type { ContextBuilder, EntityProfile } from "./context-builder.js";
import type { Draft, Emitter } from "./emitter.js";
import { agentActor, createJobDrafts, letterHash } from "./job-drafts.js";
import type { JobView } from "./job-machine.js";
import { messageIdDigest } from "./jobs/mail-step.js";
import { isChangeable, versionArtifacts } from "./jobs/meeting-change.js";
import { MOVE_TOOL } from "./tools/calendar-change-invite.js";
import type { InboundMail } from "./mail/imap-reader.js";
import { parseImipReply, type ImipReply, type RefusalReason } from "./mail/imip-reply.js";
import { mayUse } from "./mcp/agent-tools.js";
import { inviteAttendees, type InviteAttendee } from "./meeting-intake.js";
import { officeInboundMail } from "./schema.js";
import { words, type Translate } from "./speak.js";
import { RECORD_ANSWER_TOOL } from "./tools/calendar-record-answer.js";
import type { ToolRouter } from "./tools/tool-router.js";
import type { Vault } from "./vault.js";
import { formatSlot } from "./when/index.js";

/**
 * Invitees' answers, from the organizer's mailbox to the job. Each mail the reader hands on is
 * recorded once (office_inbound_mail, by its mailbox key): either as the job's
 * `job.reply_received` — the invitation's UID names the job, the ATTENDEE is one it invited,
 * and the mail comes from that attendee's own address — followed by the calendar write of the
 * answer (`calendar.record_answer`, through the tool router) and a card that says both; or as
 * a refusal with its reason. Nothing in a mail can stop the reader: every outcome is a row.
 */

export interface InviteRepliesDeps {
  ledger: LedgerApi;
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  vault: Vault;
  context: ContextBuilder;
  emitter: Emitter;
  router: ToolRouter;
  /** Whether an organizer calendar is connected (CALDAV_URL). */
  calendarConnected: boolean;
  withLock: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  jobKey: (tenantId: string, jobId: string) => string;
  maxBytes: number;
  /** Delay before each retry of a calendar write that failed on a retryable error. */
  retrySchedule: readonly number[];
  /** Free text bound for the ledger with addresses and phone numbers moved to the vault. */
  scrub: (tenantId: string, text: string) => string;
  onError: (err: unknown, where: string) => void;
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
const PARTSTAT: Record<
  Exclude<TJobReplyReceivedPayload["answer"], "counter">,
  "ACCEPTED" | "DECLINED" | "TENTATIVE"
> = {
  accepted: "ACCEPTED",
  declined: "DECLINED",
  tentative: "TENTATIVE",
};

/** One answer in words, every one of them from the recorded `job.reply_received`. */
export function answerWords(
  r: Pick<TJobReplyReceivedPayload, "attendee" | "answer" | "comment" | "proposed">,
  t: Translate,
  locale?: string,
): string {
  const name = r.attendee.name;
  if (r.answer === "counter" && r.proposed) {
    const when = formatSlot(Date.parse(r.proposed.start), Date.parse(r.proposed.end), r.proposed.timezone, locale);
    return r.comment
      ? t("office.reply.counterWhy", { name, when, comment: r.comment })
      : t("office.reply.counter", { name, when });
  }
  return r.comment
    ? t(`office.reply.${r.answer}Why`, { name, comment: r.comment })
    : t(`office.reply.${r.answer}`, { name });
}

/** "10:42 (Europe/Lisbon)": when a retry is due, in the job's zone. */
function clockTime(ms: number, timeZone: string, locale?: string): string {
  let zone = timeZone;
  let hm: string;
  try {
    hm = new Intl.DateTimeFormat(locale ?? "en", {
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone,
    }).format(ms);
  } catch {
    zone = "UTC";
    hm = new Date(ms).toISOString().slice(11, 16);
  }
  return `${hm} (${zone})`;
}

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
  const drafts = createJobDrafts({ clock, ids: deps.ids });
  /** event UID → its job, from the invite tool's recorded results (rebuilt from the ledger at start). */
  const byUid = new Map<string, { tenant_id: string; job_id: string }>();
  const timers = new Map<string, { cancel(): void }>();
  const running = new Set<Promise<unknown>>();
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
    unsubscribe = deps.ledger.subscribe(index);
    deps.ledger.replay(index);
    // Calendar writes that were still owed when the process stopped are tried again.
    for (const { tenant_id, job_id } of new Set(byUid.values())) {
      const job = context.job(tenant_id, job_id);
      if (job) for (const reply of owedWrites(job)) arm(job, reply, 0);
    }
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = undefined;
    for (const t of timers.values()) t.cancel();
    timers.clear();
  }

  const callIdOf = (jobId: string, replyEventId: string, attempt: number) =>
    `tcall_${letterHash(`${jobId}|${RECORD_ANSWER_TOOL}|${replyEventId}`)}_a${attempt}`;
  const idemOf = (jobId: string, replyEventId: string) =>
    `idem:${jobId}:${RECORD_ANSWER_TOOL}:${letterHash(replyEventId, 20)}`;

  /** Answers whose calendar write was called and last failed on a retryable error. */
  function owedWrites(job: JobView): NonNullable<JobView["replies"]> {
    return (job.replies ?? []).filter((r) => {
      const calls = job.tools.filter(
        (t) =>
          t.tool_name === RECORD_ANSWER_TOOL &&
          t.tool_call_id.startsWith(callIdOf(job.job_id, r.event_id, 1).slice(0, -3)),
      );
      const last = calls.at(-1);
      return last && (last.status === undefined || (last.status === "error" && last.retryable));
    });
  }

  function record(row: InboundRecord & { message_id_sha256?: string }): InboundRecord {
    orm
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
    const t = words(job.slots.locale);
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
    const ec = {
      tenant_id: job.tenant_id,
      trace_id: job.trace_id,
      conversation_id: job.conversation_id,
      causation_id: job.last_event_id,
    };
    const replyDraft: Draft = {
      event_type: "job.reply_received",
      event_id: eventId,
      actor: agentActor(agent.entity_id),
      job_id: job.job_id,
      payload,
    };
    const writes = reply.answer !== "counter" && deps.calendarConnected && mayUse(agent, RECORD_ANSWER_TOOL);
    if (!writes) {
      const why =
        reply.answer === "counter"
          ? ""
          : !deps.calendarConnected
            ? t("office.reply.calendar.none")
            : t("office.reply.calendar.notAllowed");
      await deps.emitter.emit(ec, [
        replyDraft,
        ...cardFor(job, agent, payload, why, reply.answer === "counter" ? eventId : undefined),
      ]);
      return record({ key: mailKey, status: "recorded", received_at: clock.iso(), ...ids, event_id: eventId });
    }
    await deps.emitter.emit(ec, [replyDraft, calledDraft(job, agent, payload, who, eventId, 1)]);
    record({ key: mailKey, status: "recorded", received_at: clock.iso(), ...ids, event_id: eventId });
    const fresh = context.job(job.tenant_id, job.job_id);
    if (fresh) await runWrite(fresh, agent, eventId, 1);
    return {
      key: mailKey,
      status: "recorded",
      received_at: clock.iso(),
      tenant_id: job.tenant_id,
      job_id: job.job_id,
      event_id: eventId,
    };
  }

  function calledDraft(
    job: JobView,
    agent: EntityProfile,
    r: TJobReplyReceivedPayload,
    who: InviteAttendee,
    replyEventId: string,
    attempt: number,
  ): Draft {
    const tool = deps.router.get(RECORD_ANSWER_TOOL)!;
    const input = {
      event_uid: r.event_uid,
      attendee: {
        name: who.name,
        vault_ref: who.vault_ref,
        email_redacted: who.email_redacted,
        email_hash: who.email_hash,
      },
      partstat: PARTSTAT[r.answer as keyof typeof PARTSTAT],
    };
    const clean = tool.sanitize(input);
    const callId = callIdOf(job.job_id, replyEventId, attempt);
    return {
      event_type: "tool.called",
      event_id: `evt_${callId}`,
      actor: agentActor(agent.entity_id),
      job_id: job.job_id,
      payload: {
        tool_call_id: callId,
        tool_name: RECORD_ANSWER_TOOL,
        tool_version: tool.version,
        purpose: tool.purpose(input),
        inputs: { ...clean.inputs, reply_event_id: replyEventId },
        pii_policy: {
          redactions_applied: clean.redactions_applied,
          hashes_applied: clean.hashes_applied,
          raw_pii_stored: false,
        },
        idempotency_key: idemOf(job.job_id, replyEventId),
        attempt,
        ...(attempt > 1 ? { retry_of_tool_call_id: callIdOf(job.job_id, replyEventId, attempt - 1) } : {}),
      },
    };
  }

  /** Runs the write the recorded `tool.called` names, then records its result and the card that says it. */
  async function runWrite(job: JobView, agent: EntityProfile, replyEventId: string, attempt: number): Promise<void> {
    const reply = (job.replies ?? []).find((r) => r.event_id === replyEventId);
    const callId = callIdOf(job.job_id, replyEventId, attempt);
    const called = job.tools.find((t) => t.tool_call_id === callId);
    if (!reply || !called) return;
    const who =
      invited(job).find((a) => a.email_hash === reply.attendee.email_hash && a.name === reply.attendee.name) ??
      invited(job).find((a) => a.name === reply.attendee.name);
    const input = who
      ? {
          event_uid: reply.event_uid,
          attendee: {
            name: who.name,
            vault_ref: who.vault_ref,
            email_redacted: who.email_redacted,
            email_hash: who.email_hash,
          },
          partstat: PARTSTAT[reply.answer as keyof typeof PARTSTAT],
        }
      : {};
    const outcome = await deps.router.execute(RECORD_ANSWER_TOOL, input, {
      tenant_id: job.tenant_id,
      job_id: job.job_id,
      idempotency_key: idemOf(job.job_id, replyEventId),
      attempt,
      now: clock.now(),
    });
    const t = words(job.slots.locale);
    const delay =
      !outcome.ok && outcome.error.retryable
        ? deps.retrySchedule[Math.min(attempt, deps.retrySchedule.length - 1)]
        : undefined;
    const result: Draft = {
      event_type: "tool.result",
      actor: agentActor(agent.entity_id),
      job_id: job.job_id,
      payload: {
        tool_call_id: callId,
        tool_name: RECORD_ANSWER_TOOL,
        status: outcome.ok ? "success" : "error",
        latency_ms: outcome.latency_ms,
        ...(outcome.ok
          ? { output: outcome.output }
          : {
              error: {
                ...outcome.error,
                ...(delay !== undefined ? { suggested_wait_seconds: Math.round(delay / 1000) } : {}),
              },
            }),
        attempt,
        retryable: delay !== undefined,
      },
    };
    const calendarWords = outcome.ok
      ? t("office.reply.calendar.marked", {
          calendar: String(
            (outcome.output.calendar as { name?: string } | undefined)?.name ?? t("office.invite.calendarFallback"),
          ).slice(0, 60),
        })
      : delay !== undefined
        ? t("office.reply.calendar.retrying", {
            error: outcome.error.message_safe,
            at: clockTime(clock.now() + delay, job.slots.timezone ?? "UTC", job.slots.locale),
          })
        : t("office.reply.calendar.failed", { error: outcome.error.message_safe });
    const ec = {
      tenant_id: job.tenant_id,
      trace_id: job.trace_id,
      conversation_id: job.conversation_id,
      causation_id: called.called_event_id,
    };
    await deps.emitter.emit(ec, [result, ...cardFor(job, agent, reply, calendarWords)]);
    if (delay !== undefined) arm(job, reply, delay, attempt + 1);
  }

  function arm(
    job: JobView,
    reply: NonNullable<JobView["replies"]>[number],
    delay: number,
    nextAttempt?: number,
  ): void {
    const k = `${job.tenant_id}|${reply.event_id}`;
    timers.get(k)?.cancel();
    timers.set(
      k,
      clock.setTimeout(() => {
        timers.delete(k);
        const p = deps
          .withLock(deps.jobKey(job.tenant_id, job.job_id), async () => {
            const now = context.job(job.tenant_id, job.job_id);
            const agent = now ? context.profile(now.tenant_id, now.owner_entity_id) : undefined;
            if (!now || agent?.actor_type !== "agent") return;
            const calls = now.tools.filter(
              (t) =>
                t.tool_name === RECORD_ANSWER_TOOL &&
                t.tool_call_id.startsWith(callIdOf(now.job_id, reply.event_id, 1).slice(0, -3)),
            );
            const last = calls.at(-1);
            if (!last) return;
            // A call without its result (a crash mid-write) runs again under its id; a failed one is retried as the next attempt.
            let attempt = last.attempt;
            if (last.status === "success" || (last.status === "error" && !last.retryable)) return;
            if (last.status === "error") {
              attempt = nextAttempt ?? last.attempt + 1;
              const who = invited(now).find((a) => a.name === reply.attendee.name);
              if (!who) return;
              await deps.emitter.emit(
                {
                  tenant_id: now.tenant_id,
                  trace_id: now.trace_id,
                  conversation_id: now.conversation_id,
                  causation_id: now.last_event_id,
                },
                [calledDraft(now, agent, reply, who, reply.event_id, attempt)],
              );
            }
            const fresh = context.job(now.tenant_id, now.job_id);
            if (fresh) await runWrite(fresh, agent, reply.event_id, attempt);
          })
          .catch((e) => deps.onError(e, "invite-replies.retry"))
          .finally(() => running.delete(p));
        running.add(p);
      }, delay),
    );
  }

  /** The job's card after an answer: the invite as it was recorded, then every answer so far, then this calendar write. */
  function cardFor(
    job: JobView,
    agent: EntityProfile,
    latest: TJobReplyReceivedPayload,
    calendarWords: string,
    counterEventId?: string,
  ): Draft[] {
    const t = words(job.slots.locale);
    const lang = job.slots.locale;
    const all = [...(job.replies ?? []).filter((r) => r.message_id_sha256 !== latest.message_id_sha256), latest];
    // The latest answer of each attendee.
    const last = new Map<string, TJobReplyReceivedPayload>();
    for (const r of all) last.set(r.attendee.email_hash ?? r.attendee.name, r);
    const answers = [...last.values()].map((r) => answerWords(r, t, lang)).join(" ");
    const original = [...job.cards.values()].find((c) => c.card_type === "job.finished");
    const base = original && original.card_type === "job.finished" ? original.outcome.summary : "";
    const summary = `${answers}${calendarWords} ${base}`.trim().slice(0, 600);
    const c = drafts.cardCtx(job, agent);
    if (job.state !== "completed")
      return [drafts.textDraft(agent.entity_id, `${answers}${calendarWords}`.slice(0, 1000), job.job_id)];
    const changeable = isChangeable(job);
    // A counter-proposal is answered from its card: Accept new time or Keep original, first.
    const answer = changeable && counterEventId ? counterButtons(c, counterEventId) : [];
    const buttons = [...answer, ...completedButtons(c, { changeable })];
    const card = buildFinishedCard(c, { result: "completed", summary, artifacts: versionArtifacts(job), buttons });
    return [
      {
        event_type: "message.sent",
        actor: agentActor(agent.entity_id),
        job_id: job.job_id,
        payload: { message_id: deps.ids("msg"), kind: "card", card },
      },
    ];
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
    async idle() {
      while (running.size) await Promise.all([...running]);
    },
  };
}
