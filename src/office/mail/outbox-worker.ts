import type { SendMailOptions } from "nodemailer";
import type { Clock } from "../../shared/clock.js";
import type { Db } from "../../shared/db.js";
import { AppError } from "../../shared/errors.js";
import { classifyFailure, nextDelay, scrubAddresses } from "./classify.js";
import { stableMessageId, type MailAddress, type Recipient } from "./invite-message.js";
import {
  createOutboxStore,
  toDelivery,
  type OutboxDelivery,
  type OutboxRow,
  type OutboxStatus,
} from "./outbox-store.js";
import type { MailTransport } from "./smtp-transport.js";

/** 30 s, 2 min, 10 min, 30 min, 2 h, 6 h: seven attempts over about nine hours, then failed. */
const DEFAULT_MAIL_SCHEDULE_MS: readonly number[] = [30_000, 120_000, 600_000, 1_800_000, 7_200_000, 21_600_000];
const NOT_CONFIGURED = "Mail is not configured on this server";

export type DeliveryOutcome =
  | {
      status: "sent";
      message_id: string;
      response: string;
      attempts: number /** recipients the server refused while taking the rest */;
      rejected: number;
    }
  | { status: "retry"; error: string; code?: number; next_attempt_at: string; attempts: number }
  | { status: "failed"; error: string; code?: number; attempts: number };

export interface DeliveryHooks {
  /** Awaited after the row is claimed and before the SMTP call; a throw cancels the attempt and restores the row. */
  beforeAttempt?(row: OutboxDelivery, attempt: number, resumed: boolean): Promise<void>;
  /** Awaited after the row holds the outcome. Also called, alone, when a row fails before any SMTP call (recipient erased). */
  afterAttempt?(row: OutboxDelivery, attempt: number, outcome: DeliveryOutcome): Promise<void>;
}

export interface OutboxWorkerDeps {
  db: Db;
  clock: Clock;
  /** Absent = mail is not configured here: waiting rows are held, nothing is sent. */
  transport?: Pick<MailTransport, "send">;
  /** Used when `message` sets no From, and for the Message-ID's domain when it sets no Message-ID. */
  from?: MailAddress;
  /** Read from the vault right before each attempt; null (or empty) = erased, and the row fails. */
  recipients(row: OutboxRow): Recipient[] | null;
  /** Builds the message, e.g. `buildInviteMessage` over the row's `.ics`; a throw fails the row. */
  message(row: OutboxRow, to: Recipient[]): SendMailOptions | Promise<SendMailOptions>;
  hooks?: DeliveryHooks;
  schedule?: readonly number[];
  /** How often the table is looked at even without a poke (another process may enqueue). */
  pollMs?: number;
  logger?: { error(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void };
}

type ResendResult =
  | { ok: true; delivery: OutboxDelivery }
  | { ok: false; code: "ALREADY_SENT" | "IN_PROGRESS" | "NOT_CONFIGURED"; message: string };

export interface OutboxWorker {
  /** Holds undated legacy rows, resumes rows left `sending` by a crash (same Message-ID), then sends what is due. */
  start(): void;
  /** No new attempt starts; resolves once the one in flight is recorded. */
  stop(): Promise<void>;
  /** Look for due rows now (call after an enqueue); cheap and safe to call often. */
  poke(): void;
  /** failed / held / queued → queued and due now, attempts keep counting. Unknown id (or another tenant's) → AppError NOT_FOUND. */
  resend(tenantId: string, outboxId: string): ResendResult;
  list(tenantId: string, opts?: { jobId?: string; status?: OutboxStatus }): OutboxDelivery[];
  /** Resolves when no pass is running (tests). */
  idle(): Promise<void>;
}

/**
 * Delivers outbox rows one at a time. The table is the only state: a row is claimed
 * (`sending`, attempts + 1) before the SMTP call and marked `sent` right after the 250, so a
 * crash in between re-sends the same Message-ID on the next start rather than losing it.
 */
export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const { clock } = deps;
  const store = createOutboxStore(deps.db, clock);
  const schedule = deps.schedule ?? DEFAULT_MAIL_SCHEDULE_MS;
  const pollMs = deps.pollMs ?? 60_000;
  let stopped = true;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: { cancel(): void } | null = null;
  let resume: string[] = [];
  // A row whose before-attempt hook threw is left alone for one poll interval: its due time is
  // unchanged (it is still owed), and retrying it in a tight loop would only repeat the throw.
  const cooling = new Map<string, number>();

  const coolingIds = () => {
    for (const [id, until] of cooling) if (until <= clock.now()) cooling.delete(id);
    return new Set(cooling.keys());
  };

  function poke(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    timer?.cancel();
    timer = null;
    running = drain()
      .catch((e) => deps.logger?.error({ err: e }, "outbox: delivery pass failed"))
      .finally(() => {
        running = null;
        if (stopped) return;
        if (again) {
          again = false;
          poke();
        } else arm();
      });
  }

  function arm(): void {
    const due = store.earliestDueMs(coolingIds());
    const delay = due === null ? pollMs : Math.min(pollMs, Math.max(0, due - clock.now()));
    timer = clock.setTimeout(() => {
      timer = null;
      poke();
    }, delay);
  }

  async function drain(): Promise<void> {
    if (!deps.transport) {
      store.holdWaiting(NOT_CONFIGURED);
      return;
    }
    const done = coolingIds();
    while (!stopped) {
      const resumedId = resume.shift();
      const row = resumedId !== undefined ? store.byId(resumedId) : store.nextDue(done);
      if (resumedId !== undefined && row?.status !== "sending") continue;
      if (!row) break;
      done.add(row.outboxId);
      await deliver(deps.transport, row, resumedId !== undefined);
    }
  }

  async function after(row: OutboxRow | null, attempt: number, outcome: DeliveryOutcome): Promise<void> {
    if (!row) return;
    deps.logger?.info?.({ outbox_id: row.outboxId, attempt, outcome: outcome.status }, "outbox: attempt recorded");
    if (!deps.hooks?.afterAttempt) return;
    await deps.hooks
      .afterAttempt(toDelivery(row), attempt, outcome)
      .catch((e) => deps.logger?.error({ err: e, outbox_id: row.outboxId }, "outbox: afterAttempt hook failed"));
  }

  async function deliver(transport: Pick<MailTransport, "send">, row: OutboxRow, resumed: boolean): Promise<void> {
    let message: SendMailOptions;
    try {
      const to = deps.recipients(row);
      if (!to?.length) throw new AppError("INVALID_INPUT", "The recipient's address is no longer available (erased)");
      message = await deps.message(row, to);
    } catch (e) {
      const error = scrubAddresses(
        e instanceof AppError
          ? e.message
          : `The message could not be built: ${e instanceof Error ? e.message : String(e)}`,
      );
      return after(store.fail(row, error), row.attempts, { status: "failed", error, attempts: row.attempts });
    }
    const fixedId =
      typeof message.messageId === "string" && message.messageId
        ? message.messageId
        : stableMessageId(row.outboxId, deps.from?.address ?? "logline.invalid");
    const claimed = store.claim(row, fixedId);
    if (!claimed) return; // another worker changed the row since it was read
    const attempt = claimed.attempts;
    try {
      await deps.hooks?.beforeAttempt?.(toDelivery(claimed), attempt, resumed);
    } catch (e) {
      store.unclaim(claimed, row);
      cooling.set(row.outboxId, clock.now() + pollMs);
      deps.logger?.error({ err: e, outbox_id: row.outboxId }, "outbox: beforeAttempt hook failed; attempt not made");
      return;
    }
    const messageId = claimed.messageId ?? fixedId;
    try {
      const info = await transport.send({
        ...message,
        ...(message.from ? {} : deps.from ? { from: deps.from } : {}),
        messageId,
      });
      const response = scrubAddresses(info.response);
      const note = info.rejected.length
        ? `${info.rejected.length} of ${info.rejected.length + info.accepted.length} recipients were refused`
        : null;
      const updated = store.sent(claimed, response, note);
      return after(updated, attempt, {
        status: "sent",
        message_id: messageId,
        response,
        attempts: attempt,
        rejected: info.rejected.length,
      });
    } catch (e) {
      const f = classifyFailure(e);
      const code = f.code !== undefined ? { code: f.code } : {};
      const delay = f.retryable ? nextDelay(schedule, attempt, claimed.retryBase) : null;
      if (delay === null)
        return after(store.fail(claimed, f.error), attempt, {
          status: "failed",
          error: f.error,
          ...code,
          attempts: attempt,
        });
      const nextAt = new Date(clock.now() + delay).toISOString();
      return after(store.retry(claimed, f.error, nextAt), attempt, {
        status: "retry",
        error: f.error,
        ...code,
        next_attempt_at: nextAt,
        attempts: attempt,
      });
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      if (deps.transport) {
        store.holdUndated("Queued before mail delivery existed; resend to send it");
        resume = store.sendingIds();
      }
      poke();
    },
    async stop() {
      stopped = true;
      timer?.cancel();
      timer = null;
      while (running) await running;
    },
    poke,
    resend(tenantId, outboxId) {
      const row = store.get(tenantId, outboxId);
      if (!row) throw new AppError("NOT_FOUND", "Outbox message not found", { outbox_id: outboxId });
      if (row.status === "sent") return { ok: false, code: "ALREADY_SENT", message: "This message was already sent" };
      if (row.status === "sending")
        return { ok: false, code: "IN_PROGRESS", message: "This message is being sent right now" };
      if (!deps.transport) return { ok: false, code: "NOT_CONFIGURED", message: NOT_CONFIGURED };
      const updated = store.requeue(row);
      if (!updated)
        return { ok: false, code: "IN_PROGRESS", message: "This message changed while resending; try again" };
      cooling.delete(outboxId);
      poke();
      return { ok: true, delivery: toDelivery(updated) };
    },
    list: (tenantId, opts) => store.list(tenantId, opts).map(toDelivery),
    async idle() {
      while (running) await running;
    },
  };
}
