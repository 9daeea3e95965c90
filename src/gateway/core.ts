import type { Locale } from "../shared/i18n.js";
import type { Context } from "hono";
import type { TAppendResponse } from "../../contracts/ledger.js";
import type { TEventType, TPayloadOf, TUblEvent } from "../../contracts/events.js";
import type { HostLedgerApi, LedgerTx } from "../ledger/index.js";
import type { OfficeApi } from "../office/index.js";
import type { Clock } from "../shared/clock.js";
import { isSqliteDb, type Db } from "../shared/db.js";
import type { IdGenerator } from "../shared/ids.js";
import { AppError } from "../shared/errors.js";
import type { AuthRows } from "./auth/auth-rows.js";
import type { TokenStore, Principal } from "./auth/token-store.js";
import type { IdempotencyStore, IdemScope, StoredResponse } from "./idempotency.js";
import type { Digest } from "./digest/index.js";
import type { Projector } from "./projections/projector.js";
import { createTenantState, type EntityRow, type TenantState } from "./projections/state.js";
import type { LiveConnections } from "./stream/live-connections.js";
import type { RateLimiter } from "./http/rate-limit.js";
import type { SseHub } from "./stream/sse-hub.js";
import type { MuteStore } from "./notify/mutes.js";
import type { SubscriptionStore } from "./notify/subscriptions.js";
import type { SignInLinks, SignInMailer } from "./sessions/index.js";
import type { SearchIndex } from "./search/search-index.js";
import type { Logger } from "./logger.js";

export { type Logger, silentLogger } from "./logger.js";
import type { Passkeys } from "./passkeys/index.js";

/**
 * The platform acting on a tenant's behalf where no person can yet: registering a new tenant's
 * first entity and a person joining through an admin's invite (the policy pack lets only
 * admins or system actors register entities, and the newcomer is neither yet).
 */
export const GATEWAY_SYSTEM_ACTOR = { entity_id: "system_gateway", actor_type: "system" as const };

/**
 * Who may create a workspace through POST /v1/workspaces. `invite` and `closed` refuse the same
 * thing (new workspaces; invite links keep working in both) and differ in what the refusal says:
 * `invite` is the default once a workspace exists, `closed` is an operator saying sign-up is shut.
 */
export type SignupMode = "open" | "invite" | "closed";

/** What every command and read shares. Internal to the gateway. */
export interface Core {
  ledger: HostLedgerApi;
  office: OfficeApi;
  db: Db;
  dataDir: string;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  projector: Projector;
  hub: SseHub;
  tokens: TokenStore;
  /** Where sign-in state lives (tokens, sign-in links, invites, passkey challenges). */
  authRows: AuthRows;
  /** Idempotency-Keys: SQLite's table, or `gateway.idempotency_keys` shared by every process on PostgreSQL. */
  idem: IdempotencyStore<LedgerTx, void | Promise<void>>;
  limiter: RateLimiter;
  /** The same limit for a whole workspace, TENANT_RATE_FACTOR times larger. */
  tenantLimiter: RateLimiter;
  /** Open streams by token: capped, and ended when the token is revoked or the roles change. */
  live: LiveConnections;
  publicUrl: () => string | undefined;
  /** Where a request came from (the socket peer, or X-Forwarded-For through TRUSTED_PROXIES). */
  clientAddress: (c: Context) => string;
  /** Notification settings: mutes, Web Push subscriptions and the server's VAPID public key. */
  notify: {
    mutes: MuteStore;
    subscriptions: SubscriptionStore;
    vapidPublicKey: string;
    allowLoopbackEndpoints: boolean;
  };
  /**
   * Sign-in links: the store, how long a link lives, the mailer for emailed links (absent without
   * SMTP), and the limits on emailed links per address and per client address.
   */
  signIn: {
    links: SignInLinks;
    linkTtlMs: number;
    mailer: SignInMailer | undefined;
    perAddress: RateLimiter;
    perClient: RateLimiter;
  };
  /** Passkeys (WebAuthn) of people, for signing in. */
  passkeys: Passkeys;
  /** The e-mail digest of what waited on people (unavailable without mail). */
  digest: Digest;
  /** The message search index (FTS5 in its own file, on its own thread), kept in step with the ledger. */
  search: SearchIndex;
  /** How long after sending a message its author may edit it (MESSAGE_EDIT_WINDOW_SECONDS). */
  messageEditWindowMs: number;
  /** The language of people whose profile names none (DEFAULT_LOCALE); English when absent. */
  defaultLocale?: Locale | undefined;
  /** Whether POST /v1/workspaces may create a workspace now; read per request (the default flips at the first workspace). */
  signupMode: () => SignupMode;
  /** The tenant's projections (an empty state for a tenant with no events yet). */
  tenant(tenantId: string): TenantState;
  /** The acting entity as the projections know it; UNAUTHORIZED when it no longer exists. */
  me(p: Principal): EntityRow;
  event<T extends TEventType>(
    tenantId: string,
    type: T,
    conversationId: string,
    actor: { entity_id: string; actor_type: "human" | "agent" | "system" },
    payload: TPayloadOf<T>,
    extra?: { job_id?: string; causation_id?: string; trace_id?: string },
  ): TUblEvent;
  /**
   * Appends events and, in the same transaction, the idempotent response (and `extra` rows such
   * as a token), so a crash between commit and reply still replays the answer. Both write
   * through `tx`, the handle the ledger's transaction is open on.
   */
  commit(
    tenantId: string,
    events: TUblEvent[],
    opts: {
      idem?: IdemScope | undefined;
      status?: number;
      body: (res: TAppendResponse) => unknown;
      extra?: (tx: Db) => void;
    },
  ): Promise<StoredResponse>;
}

export function notFound(what: string): AppError {
  // Same answer for "does not exist" and "belongs to another tenant": ids leak nothing.
  return new AppError("NOT_FOUND", `${what} not found`);
}

export function createCore(c: Omit<Core, "tenant" | "me" | "event" | "commit">): Core {
  const empty = new Map<string, TenantState>();
  const core: Core = {
    ...c,
    tenant(tenantId) {
      const s = c.projector.tenant(tenantId);
      if (s) return s;
      let e = empty.get(tenantId);
      if (!e) empty.set(tenantId, (e = createTenantState(tenantId)));
      return e;
    },
    me(p) {
      const e = core.tenant(p.tenantId).entities.get(p.entityId);
      if (!e) throw new AppError("UNAUTHORIZED", "This token's entity no longer exists");
      return e;
    },
    event(tenantId, type, conversationId, actor, payload, extra) {
      const id = c.ids("evt");
      return {
        event_id: id,
        event_type: type,
        ts: c.clock.iso(),
        tenant_id: tenantId,
        trace_id: extra?.trace_id ?? c.ids("trc"),
        conversation_id: conversationId,
        ...(extra?.job_id ? { job_id: extra.job_id } : {}),
        ...(extra?.causation_id ? { causation_id: extra.causation_id } : {}),
        actor,
        payload,
      } as TUblEvent;
    },
    async commit(tenantId, events, opts) {
      let stored: StoredResponse | undefined;
      await c.ledger.append(
        { tenant_id: tenantId, events },
        {
          withinCommit: (res, tx) => {
            // The gateway's own rows stay in its SQLite file: in the commit on SQLite, beside it on PostgreSQL.
            opts.extra?.(isSqliteDb(tx) ? tx : c.db);
            stored = { status: opts.status ?? 202, body: opts.body(res) };
            if (opts.idem) return c.idem.record(opts.idem, stored, tx);
          },
        },
      );
      return stored!;
    },
  };
  return core;
}
