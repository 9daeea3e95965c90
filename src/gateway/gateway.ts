import type { Locale } from "../shared/i18n.js";
import { join } from "node:path";
import type { TStoredEvent } from "../../contracts/events.js";
import type { TNotification } from "../../contracts/notifications.js";
import { type HostLedgerApi, type LedgerTx, replayThenFollow } from "../ledger/index.js";
import type { OfficeApi } from "../office/index.js";
import { systemClock, type Clock } from "../shared/clock.js";
import type { Db } from "../shared/db.js";
import { defaultIds, type IdGenerator } from "../shared/ids.js";
import type { ModuleDoor, RouteGuard } from "../shared/door.js";
import type { GwEnv } from "./auth/middleware.js";
import type { TokenStore } from "./auth/token-store.js";
import { seedDemo, type DemoInfo } from "./workspaces/demo.js";
import { moduleGuard } from "./http/module-guard.js";
import { createGatewayRoutes } from "./routes.js";
import type { GatewayInside } from "./gateway-api.js";
import { conversationFilterFor, eventFilterFor } from "./visibility.js";
import { type AuthRows, sqliteAuthRows } from "./auth/auth-rows.js";
import { createTokenStore } from "./auth/token-store.js";
import { createGatewayApi } from "./api.js";
import { registerWorkspace } from "./workspaces/workspaces.js";
import { createClientAddress } from "./http/client-address.js";
import type { GatewayApi } from "./gateway-api.js";
import { createCore, silentLogger, type Logger, type SignupMode } from "./core.js";
import { toGroup } from "./stream/delta-log.js";
import type { IdempotencyStore } from "./idempotency.js";
import { createIdempotencyStore } from "./idempotency-store.js";
import { migrateGateway } from "./migrate.js";
import { redactFrame } from "./projections/message-changes.js";
import { createProjector } from "./projections/projector.js";
import {
  createRateLimiter,
  DEFAULT_RATE_LIMIT,
  type RateLimitConfig,
  type SharedRateLimits,
  TENANT_RATE_FACTOR,
} from "./http/rate-limit.js";
import { createLiveConnections, DEFAULT_STREAM_LIMITS, type StreamLimits } from "./stream/live-connections.js";
import { createSseHub } from "./stream/sse-hub.js";
import { presentTimelineItem } from "./pii.js";
import type { Delta } from "./projections/state.js";
import type { TTimelineItem } from "../../contracts/gateway.js";
import {
  createMuteStore,
  createNotifier,
  createPushSender,
  createSubscriptionStore,
  DEFAULT_PUSH_LIMITS,
  loadVapidKeys,
  type PushLimits,
  type PushSender,
} from "./notify/index.js";
import { createSignInLinks, type SignInMailer } from "./sessions/index.js";
import { createLinkPreviews, type LinkPreviews, type PreviewSettings } from "./previews/index.js";

/** Sign-in links: 10 minutes; by email, 3 per address per 15 minutes and 10 per client address per hour. */
const SIGN_IN_DEFAULTS = {
  linkTtlMs: 10 * 60_000,
  perAddress: { capacity: 3, refillPerSecond: 3 / 900 },
  perClient: { capacity: 10, refillPerSecond: 10 / 3600 },
} as const;
import { createSearchIndex } from "./search/index.js";
import { createPasskeys } from "./passkeys/index.js";

/** How long a passkey challenge may be answered: five minutes, once. */
const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
import { createDigest } from "./digest/index.js";
import { createScheduler } from "./scheduled/scheduler.js";

const scaled = (cfg: RateLimitConfig, k: number): RateLimitConfig => ({
  capacity: cfg.capacity * k,
  refillPerSecond: cfg.refillPerSecond * k,
});

/** What the gateway is built on: the other modules' doors, storage, time, ids, the log and the mailer. */
export interface GatewayDeps {
  ledger: HostLedgerApi;
  office: OfficeApi;
  db: Db;
  /** Attachments are stored under `${dataDir}/attachments`. */
  dataDir: string;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  /** Sends sign-in links and the digest by email (absent: neither is offered). */
  mailer?: SignInMailer;
  /** Idempotency-Keys shared by several processes (PostgreSQL); absent: the gateway's SQLite table. */
  idempotency?: IdempotencyStore<LedgerTx, void | Promise<void>>;
  /** Sign-in state shared by several processes (PostgreSQL); absent: the gateway's SQLite tables. */
  authRows?: AuthRows;
  /** Rate-limit buckets shared by several processes (PostgreSQL); absent: each process's own. */
  rateLimits?: SharedRateLimits;
  /**
   * Whether this process sends what the log calls for (Web Push, the e-mail digest) now: on
   * PostgreSQL only the holder of Office's lease does, so each is sent once. Absent: always.
   */
  sideEffects?: () => boolean;
}

/** The gateway's settings (see GatewaySettings for the environment they come from). */
export interface GatewayConfig {
  rateLimit?: RateLimitConfig;
  /** Caps on concurrent streams per token and per tenant. */
  streamLimits?: StreamLimits;
  /** The URL people open (invite links, demo sign-in); may be set later by `setPublicUrl`. */
  publicUrl?: string;
  /** Sign-up; unset: open until the first workspace exists, then invite. */
  signup?: SignupMode;
  /** Proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES). */
  trustedProxies?: readonly string[];
  /** Delta groups kept per tenant for SSE resume (default 10,000). */
  deltaLogSize?: number;
  heartbeatMs?: number;
  /** How often presence is re-evaluated for TTL expiries (default 5 s). */
  presenceTickMs?: number;
  /** Sign-in links: lifetime and the limits on emailed ones. */
  signIn?: { linkTtlMs?: number; perAddress?: RateLimitConfig; perClient?: RateLimitConfig };
  /** How long a message stays editable (the policy pack enforces it; the gateway says so first). Default 24 h. */
  messageEditWindowSeconds?: number;
  /** The language people whose profile names none are told things in (notifications, the digest). */
  defaultLocale?: Locale;
  /** The e-mail digest: after how many minutes (default 30); it goes out only with a mailer. */
  digest?: { afterMinutes?: number; tickMs?: number };
  /** Web Push: bounds of the sender, and (tests only) loopback push endpoints. */
  push?: { limits?: Partial<PushLimits>; allowLoopbackEndpoints?: boolean };
  /** Link previews (LINK_PREVIEWS, LINK_PREVIEW_ALLOW_CIDRS): off unless `enabled`. */
  linkPreviews?: PreviewSettings;
}

/**
 * The gateway's door: `api` mirrors its REST routes, `routes()` serves them, `guard` puts the
 * other modules' routes behind the same sign-in and read rule, and the rest is what the
 * composition and operations ask of it. Its stores and projections stay inside.
 */
export interface Gateway extends ModuleDoor<GatewayApi> {
  /** The gateway's sign-in and read rule for the ledger's and Office's routes. */
  readonly guard: RouteGuard<GwEnv>;
  /** Seeds the demo workspace when the database is empty; null when it already has one. */
  seedDemo(): Promise<DemoInfo | null>;
  /** What /healthz says about the gateway: the event streams open now. */
  health(): { sse_clients: number };
  /** Sign-in tokens: the operator rotates them; tests mint them. */
  readonly tokens: TokenStore;
  /** Resolves once the sign-in rows written so far are in the database (shared ones are written after). */
  authSettled(): Promise<void>;
  setPublicUrl(url: string): void;
  /** The machine's administrator creates a workspace (CLI, admin endpoint): SIGNUP does not apply. */
  createWorkspaceAsOperator(
    name: string,
    owner: string,
  ): Promise<{ tenant_id: string; owner_entity_id: string; token: string }>;
  /** Re-evaluates presence now (the timer calls this; tests may too). */
  tickPresence(): void;
  /** Sends the scheduled messages and reminders due now (their timer calls this; tests may too). */
  runScheduled(): Promise<void>;
  /** Mails the digests due now (their timer calls this; tests may too). */
  runDigest(): Promise<void>;
  /** The Web Push sender (tests wait for it to be idle). */
  readonly push: PushSender;
  /** The link-preview worker (tests wait for it to be idle). */
  readonly previews: LinkPreviews;
  /** Stops the search index's thread as a crash would (tests): it starts again and catches up. */
  stopSearchThread(): Promise<void>;
  /** Stops everything; resolves when the search index has written what it took in. */
  close(): Promise<void>;
}

/**
 * The Messenger gateway: projections rebuilt from the ledger on boot, then kept current from
 * the ledger's tail; every committed event becomes SSE deltas in tenant order.
 */
export function createGateway(deps: GatewayDeps, config: GatewayConfig = {}): Gateway {
  const clock = deps.clock ?? systemClock;
  migrateGateway(deps.db);
  let publicUrl = config.publicUrl;
  const projector = createProjector();
  const logger = deps.logger ?? silentLogger;
  const ids = deps.ids ?? defaultIds;
  const vapid = loadVapidKeys(deps.dataDir);
  const authRows = deps.authRows ?? sqliteAuthRows(deps.db);
  const subscriptions = createSubscriptionStore({ rows: authRows, clock, ids });
  const mutes = createMuteStore({
    rows: authRows,
    clock,
    onError: (err) => logger.warn({ err }, "conversation mutes not read"),
  });
  const push = createPushSender({
    keys: vapid,
    // The push service's contact for this sender (RFC 8292): our https address, else this machine's postmaster.
    subject: () => (publicUrl?.startsWith("https://") ? publicUrl : "mailto:postmaster@localhost"),
    limits: { ...DEFAULT_PUSH_LIMITS, ...config.push?.limits },
    logger,
    onGone: (id) => subscriptions.drop(id),
  });
  const notifier = createNotifier({
    mutes,
    subscriptions,
    push,
    defaultLocale: config.defaultLocale,
    ...(deps.sideEffects ? { pushes: deps.sideEffects } : {}),
    onError: (err) => logger.warn({ err }, "push subscriptions not read"),
  });
  // Reads the ledger from where the index stopped, then follows it. Its file sits beside the
  // database under a name backups leave out (it is rebuilt from the ledger).
  const search = createSearchIndex({ path: join(deps.dataDir, "logline.sqlite-search"), ledger: deps.ledger, logger });
  const limiter = (name: string, cfg: RateLimitConfig) =>
    deps.rateLimits ? deps.rateLimits.limiter(name, cfg) : createRateLimiter(clock, cfg);
  const tokens = createTokenStore({ rows: authRows, clock });
  const digest = createDigest({
    db: deps.db,
    clock,
    projector,
    afterMinutes: config.digest?.afterMinutes ?? 30,
    defaultLocale: config.defaultLocale,
    mailer: deps.mailer,
    addressOf: (t, ref) => deps.office.vault.get(t, ref) ?? undefined,
    ...(deps.sideEffects ? { active: deps.sideEffects } : {}),
    publicUrl: () => publicUrl,
    logger,
    ...(config.digest?.tickMs ? { tickMs: config.digest.tickMs } : {}),
  });
  const hub = createSseHub({
    clock,
    commitPending: () => deps.ledger.commitPending?.() ?? false,
    ...(config.deltaLogSize ? { logSize: config.deltaLogSize } : {}),
    ...(config.heartbeatMs ? { heartbeatMs: config.heartbeatMs } : {}),
  });
  const core = createCore({
    ledger: deps.ledger,
    office: deps.office,
    db: deps.db,
    dataDir: deps.dataDir,
    clock,
    ids,
    logger,
    projector,
    hub,
    tokens,
    authRows,
    idem: deps.idempotency ?? createIdempotencyStore({ db: deps.db, clock }),
    limiter: limiter("write", config.rateLimit ?? DEFAULT_RATE_LIMIT),
    tenantLimiter: limiter("tenant", scaled(config.rateLimit ?? DEFAULT_RATE_LIMIT, TENANT_RATE_FACTOR)),
    live: createLiveConnections(config.streamLimits ?? DEFAULT_STREAM_LIMITS),
    publicUrl: () => publicUrl,
    clientAddress: createClientAddress(config.trustedProxies ?? []),
    notify: {
      mutes,
      subscriptions,
      vapidPublicKey: vapid.publicKey,
      allowLoopbackEndpoints: config.push?.allowLoopbackEndpoints ?? false,
    },
    signIn: {
      links: createSignInLinks({
        rows: authRows,
        clock,
        linkTtlMs: config.signIn?.linkTtlMs ?? SIGN_IN_DEFAULTS.linkTtlMs,
      }),
      linkTtlMs: config.signIn?.linkTtlMs ?? SIGN_IN_DEFAULTS.linkTtlMs,
      mailer: deps.mailer,
      perAddress: limiter("signin-address", config.signIn?.perAddress ?? SIGN_IN_DEFAULTS.perAddress),
      perClient: limiter("signin-client", config.signIn?.perClient ?? SIGN_IN_DEFAULTS.perClient),
    },
    passkeys: createPasskeys({
      db: deps.db,
      rows: authRows,
      clock,
      publicUrl: () => publicUrl,
      challengeTtlMs: PASSKEY_CHALLENGE_TTL_MS,
      rpName: "LogLine",
    }),
    search,
    digest,
    messageEditWindowMs: (config.messageEditWindowSeconds ?? 86_400) * 1000,
    defaultLocale: config.defaultLocale,
    signupMode: () => config.signup ?? (deps.ledger.tenants().length > 0 ? "invite" : "open"),
  });
  const { live } = core;

  // Revocation is immediate: a revoked token's streams end now, and tokens revoked elsewhere
  // (the admin CLI, another process) are noticed within half a second.
  core.tokens.onRevoke((r) =>
    "tokenHash" in r ? live.closeToken(r.tokenHash) : live.closeEntity(r.tenantId, r.entityId),
  );
  let sweeping = false;
  const revocationSweep = setInterval(() => {
    const open = [...live.tokens()];
    if (sweeping || open.length === 0) return;
    sweeping = true;
    core.tokens
      .revokedAmong(open)
      .then((gone) => {
        for (const h of gone) live.closeToken(h);
      })
      .catch((err: unknown) => logger.warn({ err }, "revocation sweep failed"))
      .finally(() => (sweeping = false));
  }, 500);
  revocationSweep.unref();

  /** A timeline frame carries the text members read after a reload: what was typed (see presentTimelineItem). */
  const presentDelta = (tenantId: string, d: Delta): Delta => {
    if (d.event !== "timeline.append" && d.event !== "timeline.update" && d.event !== "thread.append") return d;
    const data = d.data as { item: TTimelineItem };
    const item = presentTimelineItem(tenantId, data.item, deps.office.vault);
    return item === data.item ? d : { ...d, data: { ...data, item } };
  };

  // Boot: replay every stored event (this also fills each tenant's resume log), then follow the
  // tail. Both run in this same synchronous turn, so no commit can fall between them.
  let booted = false;
  const project = (ev: TStoredEvent) => {
    // A change of roles changes what the person may read: their open streams end, and a
    // reconnect is judged by the new roles.
    const who =
      ev.event_type === "entity.registered" || ev.event_type === "entity.role_changed"
        ? (ev.payload as { entity_id: string }).entity_id
        : undefined;
    const rolesOf = (id: string) => projector.tenant(ev.tenant_id)?.entities.get(id)?.roles.join();
    const before = who ? rolesOf(who) : undefined;
    const jobBefore = notifier.before(projector.tenant(ev.tenant_id), ev);
    const deltas = projector.apply(ev);
    if (who && before !== undefined && before !== rolesOf(who)) live.closeEntity(ev.tenant_id, who);
    if (deltas.length)
      hub.publish(
        ev.tenant_id,
        toGroup(
          ev.seq,
          deltas.map((d) => presentDelta(ev.tenant_id, d)),
        ),
      );
    // A deleted message's text leaves the resume log too (after publishing, so its own frames are rewritten alike).
    if (ev.event_type === "message.deleted") {
      const state = projector.tenant(ev.tenant_id);
      const messageId = ev.payload.message_id;
      if (state) hub.redact(ev.tenant_id, messageId, (event, json) => redactFrame(state, messageId, event, json));
    }
    // Notifications are news, not history: no resume cursor (a reconnect does not replay them),
    // and none for what boot replays.
    const state = projector.tenant(ev.tenant_id);
    const told = state ? notifier.after(state, ev, jobBefore, booted, clock.now()) : [];
    if (told.length) hub.publish(ev.tenant_id, toGroup(null, told));
    if (state && told.length)
      digest.note(
        state,
        ev,
        told.map((d) => d.data as { entity_id: string; notification: TNotification }),
      );
  };
  const followed = replayThenFollow(deps.ledger, project, { onReplayed: () => (booted = true) });
  // On a ledger whose reads answer later the replay finishes in `start`.
  let unsubscribe: (() => void) | undefined = followed instanceof Promise ? undefined : followed;
  let closed = false;
  const replayed =
    followed instanceof Promise
      ? followed.then((u) => {
          if (closed) u();
          else unsubscribe = u;
        })
      : undefined;
  // Only messages sent from now on: a boot's replay fetches nothing.
  const previews = createLinkPreviews(core, clock, config.linkPreviews ?? { enabled: false });
  const unsubscribePreviews = deps.ledger.subscribe((ev) => previews.note(ev));
  // What fell due while the server was down is sent now, once; the rest when it falls due.
  const scheduler = createScheduler(core);
  void scheduler.runDue();

  function tickPresence(): void {
    const now = clock.now();
    for (const state of projector.tenants()) {
      const deltas = projector.tick(state, now);
      if (deltas.length) hub.publish(state.tenant_id, toGroup(null, deltas));
    }
  }
  tickPresence();
  let timer: { cancel(): void } | undefined;
  const arm = () => {
    timer = clock.setTimeout(() => {
      tickPresence();
      core.idem.prune();
      arm();
    }, config.presenceTickMs ?? 5_000);
  };
  arm();

  const api = createGatewayApi(core, scheduler);
  const inside: GatewayInside = { api, core };
  const guard: RouteGuard<GwEnv> = {
    check: moduleGuard(core),
    events: (c) => eventFilterFor(core, c.get("principal")),
    conversations: (c) => conversationFilterFor(core, c.get("principal")),
  };

  return {
    api,
    routes: () => createGatewayRoutes(inside),
    // Live once built on SQLite (the projections are rebuilt and the timers armed by then); on
    // PostgreSQL once the replay is done.
    start: async () => {
      await replayed;
    },
    guard,
    seedDemo: async () => {
      const seeded = await seedDemo(core);
      await authRows.settled();
      return seeded;
    },
    health: () => ({ sse_clients: hub.clientCount() }),
    tokens: core.tokens,
    authSettled: () => authRows.settled(),
    setPublicUrl(url) {
      publicUrl = url;
    },
    async createWorkspaceAsOperator(name, owner) {
      const made = await registerWorkspace(core, { name, owner: { display_name: owner } });
      await authRows.settled();
      return made.body as { tenant_id: string; owner_entity_id: string; token: string };
    },
    tickPresence,
    runScheduled: () => scheduler.runDue(),
    runDigest: () => digest.runDue(),
    push,
    previews,
    stopSearchThread: () => search.stopThread(),
    close() {
      unsubscribePreviews();
      previews.close();
      timer?.cancel();
      push.close();
      mutes.close();
      clearInterval(revocationSweep);
      closed = true;
      unsubscribe?.();
      const searchClosed = search.close();
      digest.close();
      scheduler.close();
      hub.close();
      // Sign-in rows still queued for a shared database are written before it closes.
      return Promise.all([searchClosed, authRows.settled()]).then(() => {});
    },
  };
}
