import type pg from "pg";
import type { TAppendRequest, TAppendResponse } from "../../../contracts/ledger.js";
import type { Clock } from "../../shared/clock.js";
import type { IdGenerator } from "../../shared/ids.js";
import type { LedgerDoorApi } from "../ledger-api.js";
import type { LedgerFold, PolicyEngine } from "../policy/types.js";
import type { Signer } from "../signing.js";

/** What the PostgreSQL ledger offers (the door every ledger offers) and what it is built from. */

export interface PgAppendOptions {
  /**
   * Runs inside the commit's PostgreSQL transaction after this batch's rows are inserted, on
   * `tx`, the client that transaction is open on: a caller's own row commits atomically with the
   * events it describes. Throwing (or rejecting) rolls back this batch only.
   */
  withinCommit?: (result: TAppendResponse, tx: pg.PoolClient) => void | Promise<void>;
}

/** The ledger on PostgreSQL: the door every ledger offers, with its appends' transaction handed over as a pg client. */
export interface PgLedgerApi extends LedgerDoorApi {
  append(req: TAppendRequest, opts?: PgAppendOptions): Promise<TAppendResponse>;
  /**
   * Called from the synchronous part of a `withinCommit`: `write` runs on the same transaction,
   * which waits for it before committing (a row another module keeps with the events, written by
   * code that was not handed `tx`). Throws outside a `withinCommit`.
   */
  alongside(write: (tx: pg.PoolClient) => Promise<unknown>): void;
  /**
   * How far behind the database this process is, in seconds: since the oldest head a sweep saw
   * ahead of this process's fold, not yet reached, or since a sweep last answered (0 when following is off).
   */
  followLagSeconds(): number;
  close(): Promise<void>;
}

export interface CreatePgLedgerDeps {
  /** Connections for appends and reads; the login may hold only `logline_ledger_writer`. */
  pool: pg.Pool;
  /** Default true: apply the ledger's migrations on this pool first (the login must own the schema). */
  migrate?: boolean;
  /** Where the signing key lives; without it the key is ephemeral. */
  dataDir?: string | undefined;
  clock?: Clock;
  ids?: IdGenerator;
  engine?: PolicyEngine;
  policyParams?: Readonly<Record<string, number>>;
  /** Must be empty: the ledger folds the stored log into it on boot. */
  fold?: LedgerFold;
  /** 0 (default) gathers the appends of one event-loop turn; more waits that long for company. */
  maxBatchWaitMs?: number;
  signer?: Signer;
  onListenerError?: (err: unknown) => void;
  logName?: string;
  /**
   * Default true: follow commits made by other processes (LISTEN `ledger` on a connection of
   * its own, plus a sweep of `ledger.heads` every `sweepMs`), folding and publishing them.
   */
  follow?: boolean;
  /** How often the heads are compared with the database, whatever the notifications say (default 1000 ms). */
  sweepMs?: number;
}
