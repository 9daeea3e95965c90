import { and, asc, eq, inArray, isNull, lte, notInArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import type { Clock } from "../../shared/clock.js";
import type { Db } from "../../shared/db.js";
import { officeOutbox } from "../schema.js";

export type OutboxRow = typeof officeOutbox.$inferSelect;
export type OutboxStatus = "held" | "queued" | "sending" | "sent" | "failed";

/** One outbox row as the worker reports it: delivery state and the redacted recipients only. */
export interface OutboxDelivery {
  outbox_id: string;
  tenant_id: string;
  job_id: string;
  artifact_id: string | null;
  to_redacted: string;
  subject: string;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  last_response: string | null;
  message_id: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string | null;
}

export function toDelivery(r: OutboxRow): OutboxDelivery {
  return {
    outbox_id: r.outboxId,
    tenant_id: r.tenantId,
    job_id: r.jobId,
    artifact_id: r.artifactId,
    to_redacted: r.toRedacted,
    subject: r.subject,
    status: r.status as OutboxStatus,
    attempts: r.attempts,
    next_attempt_at: r.nextAttemptAt,
    last_error: r.lastError,
    last_response: r.lastResponse,
    message_id: r.messageId,
    sent_at: r.sentAt,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
  };
}

/**
 * The delivery columns of `office_outbox`. Every state change is one UPDATE guarded by the
 * state it expects (status and attempts), so two workers on one database never both claim a
 * row, and a stale decision changes nothing.
 */
export function createOutboxStore(db: Db, clock: Clock) {
  const orm = drizzle(db);
  const t = officeOutbox;
  const byId = (outboxId: string) => orm.select().from(t).where(eq(t.outboxId, outboxId)).get() ?? null;
  const guard = (r: OutboxRow) => and(eq(t.outboxId, r.outboxId), eq(t.status, r.status), eq(t.attempts, r.attempts));
  const patch = (r: OutboxRow, set: SQLiteUpdateSetSource<typeof t>) =>
    orm
      .update(t)
      .set({ ...set, updatedAt: clock.iso() })
      .where(guard(r))
      .returning()
      .get() ?? null;

  return {
    byId,
    get: (tenantId: string, outboxId: string) =>
      orm
        .select()
        .from(t)
        .where(and(eq(t.tenantId, tenantId), eq(t.outboxId, outboxId)))
        .get() ?? null,
    list(tenantId: string, opts: { jobId?: string; status?: OutboxStatus } = {}): OutboxRow[] {
      const where = [
        eq(t.tenantId, tenantId),
        ...(opts.jobId ? [eq(t.jobId, opts.jobId)] : []),
        ...(opts.status ? [eq(t.status, opts.status)] : []),
      ];
      return orm
        .select()
        .from(t)
        .where(and(...where))
        .orderBy(asc(t.createdAt), asc(t.outboxId))
        .all();
    },
    /** The queued row due first, leaving out `skip` (rows this pass already handled). */
    nextDue(skip: ReadonlySet<string>): OutboxRow | null {
      const where = and(
        eq(t.status, "queued"),
        lte(t.nextAttemptAt, clock.iso()),
        skip.size ? notInArray(t.outboxId, [...skip]) : undefined,
      );
      return orm.select().from(t).where(where).orderBy(asc(t.nextAttemptAt), asc(t.createdAt)).limit(1).get() ?? null;
    },
    /** When the earliest queued row (outside `skip`) is due, in ms; null when none is queued. */
    earliestDueMs(skip: ReadonlySet<string>): number | null {
      const where = and(eq(t.status, "queued"), skip.size ? notInArray(t.outboxId, [...skip]) : undefined);
      const row = orm
        .select({ at: sql<string | null>`min(${t.nextAttemptAt})` })
        .from(t)
        .where(where)
        .get();
      return row?.at ? Date.parse(row.at) : null;
    },
    sendingIds: () =>
      orm
        .select({ id: t.outboxId })
        .from(t)
        .where(eq(t.status, "sending"))
        .orderBy(asc(t.updatedAt))
        .all()
        .map((r) => r.id),
    /** Rows queued before delivery existed have no due time: they wait for a person's resend. */
    holdUndated: (reason: string) =>
      orm
        .update(t)
        .set({ status: "held", lastError: reason, updatedAt: clock.iso() })
        .where(and(eq(t.status, "queued"), isNull(t.nextAttemptAt)))
        .run().changes,
    /** No transport: whatever waits to be sent is held instead, so nothing claims to be on its way. */
    holdWaiting: (reason: string) =>
      orm
        .update(t)
        .set({ status: "held", nextAttemptAt: null, lastError: reason, updatedAt: clock.iso() })
        .where(inArray(t.status, ["queued", "sending"]))
        .run().changes,
    /** `sending`, attempts + 1 and the Message-ID (kept if one was fixed before), in one statement. */
    claim: (r: OutboxRow, messageId: string) =>
      patch(r, { status: "sending", attempts: sql`${t.attempts} + 1`, messageId: r.messageId ?? messageId }),
    /** Undoes a claim whose attempt was never made (the before-attempt hook threw). */
    unclaim: (claimed: OutboxRow, before: OutboxRow) =>
      patch(claimed, {
        status: before.status === "sending" ? "queued" : before.status,
        attempts: before.attempts,
        nextAttemptAt: before.nextAttemptAt ?? clock.iso(),
      }),
    sent: (claimed: OutboxRow, response: string, note: string | null) =>
      patch(claimed, {
        status: "sent",
        sentAt: clock.iso(),
        lastResponse: response,
        lastError: note,
        nextAttemptAt: null,
      }),
    retry: (claimed: OutboxRow, error: string, nextAttemptAt: string) =>
      patch(claimed, { status: "queued", lastError: error, nextAttemptAt }),
    fail: (r: OutboxRow, error: string) => patch(r, { status: "failed", lastError: error, nextAttemptAt: null }),
    /** failed, held or queued → queued now; the backoff schedule starts over from the current attempt count. */
    requeue: (r: OutboxRow) => patch(r, { status: "queued", nextAttemptAt: clock.iso(), retryBase: r.attempts }),
  };
}
