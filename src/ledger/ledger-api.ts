import type {
  TAppendRequest,
  TAppendResponse,
  TCheckpoint,
  TKeysResponse,
  TQueryRequest,
  TQueryResponse,
  TVerifyReport,
} from "../../contracts/ledger.js";
import type { TStoredEvent } from "../../contracts/events.js";
import type { TPolicySettings } from "../../contracts/admin.js";
import type { ClientBase } from "pg";
import type { Db } from "../shared/db.js";
import type { TransparencyLog } from "./merkle/log.js";

/** Read-only facts the ledger keeps about a tenant (its own fold), for other modules' checks. */
export interface LedgerFacts {
  jobState(tenantId: string, jobId: string): string | undefined;
  jobConversation(tenantId: string, jobId: string): string | undefined;
  isMember(tenantId: string, conversationId: string, entityId: string): boolean;
  entity(
    tenantId: string,
    entityId: string,
  ):
    | {
        actor_type: "human" | "agent";
        roles: string[];
        display_name: string;
        allowed_tools?: string[];
        tool_modes?: ReadonlyMap<string, "auto" | "approve" | "off">;
        /** Set while an admin has it deactivated (or removed, for an agent). */
        status?: "deactivated" | "removed";
        /** True while an admin has the agent paused. */
        paused?: boolean;
      }
    | undefined;
}

export interface AppendOptions {
  /**
   * Runs inside the commit's SQLite transaction after this batch's rows are inserted, so a
   * caller's own row (e.g. the gateway's stored idempotent response) commits atomically with
   * the events it describes; `tx` is the connection that transaction is open on. Throwing rolls
   * back this batch only.
   */
  withinCommit?: (result: TAppendResponse, tx: Db) => void;
}

/** A page of `query`: the contract's response, its events typed as the stored envelopes they are. */
export type LedgerPage = Omit<TQueryResponse, "events"> & { events: TStoredEvent[] };

/** A value now (SQLite reads) or later (a store across the network). */
type Awaitable<T> = T | Promise<T>;

/** The transparency log's reads, answered now or later. */
type TransparencyLogReads = {
  [K in keyof TransparencyLog]: TransparencyLog[K] extends (...args: infer A) => infer R
    ? (...args: A) => Awaitable<R>
    : never;
};

/**
 * What every ledger offers, whatever its storage (SQLite in-process, PostgreSQL): reads that
 * touch the stored log may answer later. The REST routes take this; the contract suite
 * (test/ledger/contract/) holds every implementation to it.
 */
export interface LedgerDoorApi {
  /**
   * Validates each event against the policy pack (in order, each seeing the ones before it),
   * then writes all of them or none. Resolves only after the commit is durable. A refused
   * event rejects with an AppError carrying the policy's code, and a `policy.violation` event
   * is appended in its place.
   */
  append(req: TAppendRequest): Promise<TAppendResponse>;

  /** Events of one tenant in tenant_seq order, filtered, paginated by `after_cursor`. */
  query(req: TQueryRequest): Awaitable<LedgerPage>;

  /**
   * Calls `listener` with every event this ledger commits from now on, in tenant_seq order per
   * tenant, synchronously after each commit. Returns an unsubscribe.
   */
  subscribe(listener: (event: TStoredEvent) => void): () => void;

  /** Streams stored events (per tenant in tenant_seq order); optionally one tenant, after a seq. */
  replay(
    onEvent: (event: TStoredEvent) => void,
    opts?: { tenantId?: string; afterTenantSeq?: number },
  ): Awaitable<void>;

  /** The tenant's head as this ledger last saw it: last tenant_seq (0 when empty) and its hash. */
  head(tenantId: string): { tenant_seq: number; hash: string };

  /** Latest signed checkpoint of a tenant, or null before its first commit. */
  checkpoint(tenantId: string): Awaitable<TCheckpoint | null>;

  /** Public keys that sign checkpoints. */
  keys(): TKeysResponse;

  /** Recomputes the chain and checkpoint signatures and names the first break. */
  verify(tenantId: string): Awaitable<TVerifyReport>;

  /**
   * The same events as an RFC 6962 Merkle log per tenant: signed checkpoint notes, inclusion and
   * consistency proofs, leaf bytes (GET /v1/ledger/checkpoint as text, /proof/*, /leaves).
   */
  tlog: TransparencyLogReads;

  /** Tenant ids that have at least one event. */
  tenants(): string[];

  /** The ledger's own fold, read-only. */
  facts: LedgerFacts;

  /** See LedgerApi.policySettings. */
  policySettings(tenantId: string): TPolicySettings | null;

  close(): Awaitable<void>;
}

/** The handle an append's transaction is open on: SQLite's connection, or a PostgreSQL client. */
export type LedgerTx = Db | ClientBase;

/**
 * What the gateway and Office are built on: either ledger. `withinCommit` gets the transaction's
 * handle (writes through it commit with the events) and may answer later on PostgreSQL, where
 * the ledger waits for it before committing; on SQLite it must finish synchronously.
 */
export interface HostLedgerApi extends LedgerDoorApi {
  append(
    req: TAppendRequest,
    opts?: { withinCommit?: (result: TAppendResponse, tx: LedgerTx) => void | Promise<void> },
  ): Promise<TAppendResponse>;
  /** See LedgerApi.commitPending (SQLite only). */
  commitPending?(): boolean;
}

/**
 * The UBL on SQLite: an append-only, hash-chained, signed event log per tenant, read
 * synchronously (the gateway and Office, in the same process, rely on that). The methods mirror
 * the REST endpoints under /v1/ledger. Every other module writes only through `append`.
 */
export interface LedgerApi extends LedgerDoorApi {
  append(req: TAppendRequest, opts?: AppendOptions): Promise<TAppendResponse>;

  query(req: TQueryRequest): LedgerPage;

  /**
   * Calls `listener` with every event committed from now on, in global commit order (and so
   * in tenant_seq order per tenant), synchronously after each commit. Returns an unsubscribe.
   */
  subscribe(listener: (event: TStoredEvent) => void): () => void;

  /** Streams stored events in global order (boot replay); optionally one tenant, after a seq. */
  replay(onEvent: (event: TStoredEvent) => void, opts?: { tenantId?: string; afterTenantSeq?: number }): void;

  checkpoint(tenantId: string): TCheckpoint | null;

  verify(tenantId: string): TVerifyReport;

  tlog: TransparencyLog;

  /** Tenant ids that have at least one event. */
  tenants(): string[];

  /**
   * True while appends wait for the group commit that runs in the next event-loop turn: a
   * listener about to fan out what it heard may wait that turn and send both commits at once.
   */
  commitPending(): boolean;

  /** The ledger's own fold, read-only. */
  facts: LedgerFacts;

  /**
   * The policy pack as it judges one workspace: each policy's pack mode, the mode in force (the
   * workspace's `policy.overrides_set` applied), the modes it may be given, and the tunable
   * parameters with their ranges. Null when the engine cannot say (an injected one).
   */
  policySettings(tenantId: string): TPolicySettings | null;

  close(): void;
}
