import type { TAppendRequest, TAppendResponse } from "../../contracts/ledger.js";
import type { TActor } from "../../contracts/primitives.js";
import type { Clock } from "../shared/clock.js";
import type { Db } from "../shared/db.js";
import { AppError } from "../shared/errors.js";
import type { IdGenerator } from "../shared/ids.js";
import { EMAIL_RE } from "./pii.js";

/** One event Office wants written, before the envelope is filled in. */
export interface Draft {
  event_type: string;
  actor: TActor;
  job_id?: string;
  payload: Record<string, unknown>;
  /** Set when the id must be deterministic (a retry that two processes might both attempt). */
  event_id?: string;
}

export interface EmitContext {
  tenant_id: string;
  trace_id: string;
  conversation_id: string;
  /** The event that caused this step (the person's message or click, a tool result…). */
  causation_id?: string;
}

/** Extra work done inside the commit of Office's batch (a caller's idempotency record), written through `tx`. */
export interface EmitOptions<Tx = Db> {
  withinCommit?: (result: TAppendResponse, tx: Tx) => void | Promise<void>;
}

/**
 * What the emitter needs of a ledger: an append whose `withinCommit` gets the transaction's
 * handle (SQLite's connection, or a PostgreSQL client; the latter may be awaited).
 */
interface AppendingLedger<Tx> {
  append(
    req: TAppendRequest,
    opts?: { withinCommit?: (result: TAppendResponse, tx: Tx) => void | Promise<void> },
  ): Promise<TAppendResponse>;
}

/** The part of an inbox item's answer in a commit (see inbox.ts): `fence` runs inside the commit, `failed` when it did not commit. */
export interface AnswerFence<Tx, Done> {
  fence(tx: Tx): Done | undefined;
  failed(err: unknown): void;
}

export interface Emitter<Tx = Db> {
  /** Appends the drafts as one all-or-nothing batch; each event is caused by the one before it. */
  emit(ctx: EmitContext, drafts: Draft[], opts?: EmitOptions<Tx>): Promise<string[]>;
}

/**
 * The only place Office writes. Fills the envelope (id, ts, trace, causation) and refuses a
 * batch carrying a raw email before the ledger has to: a leak is a bug here, not a policy event.
 */
export function createEmitter<Tx = Db>(deps: {
  ledger: AppendingLedger<Tx>;
  clock: Clock;
  ids: IdGenerator;
  answering?: { withinCommit(): AnswerFence<Tx, void | Promise<void>> | undefined };
  /**
   * The policy pack refused an event Office wrote on its own (an agent's or the system's, not a
   * person's click): always a bug in Office, told at error level with the refusal and the batch.
   */
  onOwnRefusal?: (details: {
    code: string;
    message: string;
    policy_id?: unknown;
    event_type?: string;
    event_types: string[];
    tenant_id: string;
    job_id?: string;
  }) => void;
}): Emitter<Tx> {
  return {
    async emit(ctx, drafts, opts) {
      if (!drafts.length) return [];
      let cause = ctx.causation_id;
      const events = drafts.map((d) => {
        const event_id = d.event_id ?? deps.ids("evt");
        const ev = {
          event_id,
          event_type: d.event_type,
          ts: deps.clock.iso(),
          tenant_id: ctx.tenant_id,
          trace_id: ctx.trace_id,
          conversation_id: ctx.conversation_id,
          ...(d.job_id ? { job_id: d.job_id } : {}),
          actor: d.actor,
          ...(cause ? { causation_id: cause } : {}),
          payload: d.payload,
        };
        cause = event_id;
        return ev;
      });
      const raw = JSON.stringify(events.map((e) => e.payload));
      if (new RegExp(EMAIL_RE.source, "i").test(raw)) {
        throw new AppError("RAW_PII_DETECTED", "Office refused to write a raw email address to the ledger.");
      }
      // Answering an inbox item: the item is deleted in the same commit as these events.
      const answer = deps.answering?.withinCommit();
      const extra = opts?.withinCommit;
      const withinCommit =
        answer || extra
          ? (r: TAppendResponse, tx: Tx) => {
              const fenced = answer?.fence(tx);
              // On SQLite the fence is done at once (the commit is synchronous); elsewhere it is awaited.
              if (fenced instanceof Promise) return fenced.then(() => extra?.(r, tx));
              return extra?.(r, tx);
            }
          : undefined;
      try {
        const res = await deps.ledger.append(
          { tenant_id: ctx.tenant_id, events },
          withinCommit ? { withinCommit } : undefined,
        );
        return res.accepted_event_ids;
      } catch (err) {
        answer?.failed(err);
        const policyId = err instanceof AppError ? err.details?.policy_id : undefined;
        const index = err instanceof AppError ? err.details?.event_index : undefined;
        const refused = typeof index === "number" ? events[index] : undefined;
        if (policyId !== undefined && refused && refused.actor.actor_type !== "human") {
          deps.onOwnRefusal?.({
            code: (err as AppError).code,
            message: (err as AppError).message,
            policy_id: policyId,
            event_type: refused.event_type,
            event_types: events.map((e) => e.event_type),
            tenant_id: ctx.tenant_id,
            ...(refused.job_id ? { job_id: refused.job_id } : {}),
          });
        }
        throw err;
      }
    },
  };
}
