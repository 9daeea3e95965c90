import type { Locale } from "./shared/i18n.js";
import { serve, type ServerType } from "@hono/node-server";
import type { Hono, MiddlewareHandler } from "hono";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createApp } from "./app.js";
import {
  bodyLimits,
  closeUnreadBodies,
  wellFormedText,
  wellFormedUrl,
  createGateway,
  createStaticRoutes,
  securityHeaders,
  writeDemoFile,
  type DemoInfo,
  type Gateway,
  type Logger,
  type PreviewSettings,
  type RateLimitConfig,
  type SignInMailer,
  type StreamLimits,
} from "./gateway/index.js";
import { createLedger, type HostLedgerApi, type LedgerApi } from "./ledger/index.js";
import type { CalDavConfig, ImapConfig, MailConfig } from "./office/settings.js";
import {
  createCalDavCalendar,
  createOffice,
  createSmtpTransport,
  createRulesPlanner,
  type CalDavCalendar,
  type Office,
  type Planner,
} from "./office/index.js";
import { selectPlanner } from "./office/index.js";
import type { LlmConfig, McpServerConfig } from "./office/settings.js";
import { databasePath } from "./ops/data-dir.js";
import { startWalCheckpointer } from "./shared/wal-checkpointer.js";
import { systemClock, type Clock } from "./shared/clock.js";
import { openDatabase, type Db } from "./shared/db.js";
import type { ModuleDoor } from "./shared/door.js";
import { holdOfficeLease, type OfficeLease, openPgBackend } from "./server-pg.js";
import type { IdGenerator } from "./shared/ids.js";

export interface ServerOptions {
  dataDir: string;
  /**
   * postgres:// URL: the ledger, Idempotency-Keys and Office's inbox live in that database,
   * shared with other processes on it; the gateway's other tables stay in DATA_DIR's SQLite file.
   * Unset: everything in DATA_DIR's SQLite file, one process.
   */
  databaseUrl?: string;
  port?: number;
  host?: string;
  /** Seed the demo tenant when the database is empty, write demo.json and print Dan's link. */
  demo?: boolean;
  clock?: Clock;
  ids?: IdGenerator;
  planner?: Planner;
  /** The organizer's calendar, injected (tests); `connectors.caldav` builds a CalDAV one. */
  calendarProvider?: CalDavCalendar;
  /** Optional outside services, each off until configured (see src/config.ts). */
  connectors?: {
    mail?: MailConfig;
    caldav?: CalDavConfig;
    imap?: ImapConfig;
    jitsiBaseUrl?: string;
    calls?: boolean;
    mcpServers?: readonly McpServerConfig[];
  };
  logger?: Logger & { child?: unknown };
  rateLimit?: RateLimitConfig;
  /** Deadlines for slow clients (defaults: DEFAULT_HTTP_TIMEOUTS). */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** Concurrent streams per token and per tenant (429 beyond). */
  streamLimits?: StreamLimits;
  /** The URL people open; defaults to the listening address. https makes the cookie Secure. */
  publicUrl?: string;
  /** Sign-up mode; unset: open until the first workspace exists, then invite. */
  signup?: "open" | "invite" | "closed" | undefined;
  /** Proxies whose X-Forwarded-For is believed (rate limits of anonymous requests). */
  trustedProxies?: readonly string[];
  ledgerSync?: "full" | "normal";
  /** The Merkle log's name in signed checkpoints (default logline.local). */
  logName?: string;
  /** How long a message stays editable after it was sent (default: the policy pack's 24 h). */
  messageEditWindowSeconds?: number;
  /** The e-mail digest: what waited on a person this many minutes (default 30), with mail configured. */
  digestAfterMinutes?: number;
  /** The language agents speak to people whose profile names none (default English). */
  defaultLocale?: Locale;
  /** Link previews (off unless enabled); tests pass bounds and a resolver too. */
  linkPreviews?: PreviewSettings;
  /** The web app's folder (default: web/ of this install). */
  webDir?: string;
  office?: {
    planner: "rules" | "llm";
    llm?: LlmConfig;
  };
  /** Run before every route (ops request observer). */
  middleware?: MiddlewareHandler[];
  /** Extra route groups (ops /readyz, /metrics). */
  // biome-ignore lint/suspicious/noExplicitAny: route groups differ in their env and schema types
  routes?: Hono<any, any, any>[];
  /** Sign-in links: lifetime (default 10 min) and the limits on emailed ones (tests shorten them). */
  signIn?: { linkTtlMs?: number; perAddress?: RateLimitConfig; perClient?: RateLimitConfig };
  /** Web Push sender bounds; `allowLoopbackEndpoints` lets tests serve a push service on this machine. */
  push?: {
    allowLoopbackEndpoints?: boolean;
    limits?: { concurrency?: number; maxQueued?: number; timeoutMs?: number; ttlSeconds?: number };
  };
  /** Test knobs. */
  heartbeatMs?: number;
  presenceTickMs?: number;
  deltaLogSize?: number;
  retrySchedule?: readonly number[];
  /** How long `close()` lets requests in flight finish before cutting their connections (ms, default 5000). */
  closeGraceMs?: number;
  /** Called with each append's latency in ms, committed or refused (ops metrics). */
  onAppend?: (ms: number) => void;
}

interface HttpTimeouts {
  /** A request's headers must have arrived by then. */
  headersMs: number;
  /** The whole request (headers and body) must have arrived by then. */
  requestMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
}

const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 60_000, keepAliveMs: 5_000 };

export interface LogLineServer<L extends HostLedgerApi = LedgerApi> {
  app: ReturnType<typeof createApp>;
  db: Db;
  /** The ledger door's api: SQLite's, or PostgreSQL's with DATABASE_URL. */
  ledger: L;
  /** Seconds since this process last knew it had every other process's commits (0 on SQLite). */
  followLagSeconds(): number;
  /** Office's door's api. */
  office: Office;
  /** The gateway's door. */
  gateway: Gateway;
  /** The planner in use: "rules" when OFFICE_PLANNER=llm fell back at boot (also on /healthz). */
  planner: string;
  /** Set once listening. */
  url?: string;
  /** demo.json's content when demo mode seeded (or had seeded) the database. */
  demo: DemoInfo | null;
  listen(): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
}

const consoleLogger: Logger = {
  info: (o, m) => console.log(m ?? "", o),
  warn: (o, m) => console.warn(m ?? "", o),
  error: (o, m) => console.error(m ?? "", o),
};

/**
 * Composition: DATA_DIR/logline.sqlite → ledger → Office → gateway, one Hono app (security
 * headers and body limits first; gateway routes; the ledger's and Office's routes behind the
 * gateway's auth; the web UI last), and listen/close.
 */
export async function createServer(opts: ServerOptions & { databaseUrl?: undefined }): Promise<LogLineServer>;
export async function createServer(opts: ServerOptions): Promise<LogLineServer<HostLedgerApi>>;
export async function createServer(opts: ServerOptions): Promise<LogLineServer<HostLedgerApi>> {
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? consoleLogger;
  const db = openDatabase({ path: databasePath(opts.dataDir), sync: opts.ledgerSync ?? "full" });
  const ids = opts.ids ? { ids: opts.ids } : {};
  const policyParams = opts.messageEditWindowSeconds
    ? { policyParams: { message_edit_window_seconds: opts.messageEditWindowSeconds } }
    : {};
  const pg = opts.databaseUrl
    ? await openPgBackend({
        url: opts.databaseUrl,
        dataDir: opts.dataDir,
        clock,
        ...ids,
        logger,
        ...(opts.logName ? { logName: opts.logName } : {}),
        ...policyParams,
      }).catch((err: unknown) => {
        db.close();
        throw err;
      })
    : undefined;
  const ledger: ModuleDoor<HostLedgerApi> =
    pg?.ledger ??
    createLedger(
      {
        db,
        dataDir: opts.dataDir,
        clock,
        ...ids,
        onListenerError: (err) => logger.error({ err }, "ledger listener failed"),
        ...(opts.onAppend ? { onAppend: opts.onAppend } : {}),
      },
      { ...(opts.logName ? { logName: opts.logName } : {}), ...policyParams },
    );

  let planner = opts.planner;
  let plannerActive: string = planner?.name ?? "rules";
  if (!planner && opts.office?.planner === "llm") {
    const sel = await selectPlanner({
      llm: opts.office.llm,
      rules: createRulesPlanner(),
      db,
      clock,
      logger: { info: (o, m) => logger.info(o, m), warn: (o, m) => logger.warn(o, m) },
    });
    planner = sel.planner;
    plannerActive = sel.active;
  }
  const calendar =
    opts.calendarProvider ?? (opts.connectors?.caldav ? createCalDavCalendar(opts.connectors.caldav) : undefined);
  const office = createOffice(
    {
      ledger: ledger.api,
      db,
      dataDir: opts.dataDir,
      clock,
      ...ids,
      ...(planner ? { planner } : {}),
      ...(calendar ? { calendarProvider: calendar } : {}),
      ...(pg ? { sharedInbox: pg.sharedInbox } : {}),
      logger: { error: (o, m) => logger.error(o as object, m), info: (o, m) => logger.info(o as object, m) },
    },
    {
      ...(opts.connectors?.jitsiBaseUrl ? { jitsiBaseUrl: opts.connectors.jitsiBaseUrl } : {}),
      // Start a call names rooms only on a Jitsi server someone configured, never on the default.
      ...(opts.connectors?.calls && opts.connectors.jitsiBaseUrl ? { calls: true } : {}),
      ...(opts.connectors?.mail ? { mail: opts.connectors.mail } : {}),
      ...(opts.connectors?.imap ? { imap: opts.connectors.imap } : {}),
      ...(opts.connectors?.mcpServers ? { mcpServers: opts.connectors.mcpServers } : {}),
      ...(opts.retrySchedule ? { retrySchedule: opts.retrySchedule } : {}),
      ...(opts.defaultLocale ? { defaultLocale: opts.defaultLocale } : {}),
    },
  );
  // Sign-in links and the digest go out through the same SMTP settings as Office's mail.
  const mailer = signInMailerFor(opts.connectors?.mail);
  let lease: OfficeLease | undefined;
  const gateway = createGateway(
    {
      ledger: ledger.api,
      office: office.api,
      db,
      dataDir: opts.dataDir,
      clock,
      ...ids,
      logger,
      ...(mailer ? { mailer } : {}),
      ...(pg
        ? {
            idempotency: pg.idempotency,
            authRows: pg.authRows,
            rateLimits: pg.rateLimits,
            // Web Push and the digest go out from the lease holder alone (set below, once the lease is tried).
            sideEffects: () => lease?.held() ?? false,
          }
        : {}),
    },
    {
      ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}),
      ...(opts.streamLimits ? { streamLimits: opts.streamLimits } : {}),
      ...(opts.publicUrl ? { publicUrl: opts.publicUrl } : {}),
      ...(opts.signup ? { signup: opts.signup } : {}),
      ...(opts.trustedProxies ? { trustedProxies: opts.trustedProxies } : {}),
      ...(opts.heartbeatMs ? { heartbeatMs: opts.heartbeatMs } : {}),
      ...(opts.presenceTickMs ? { presenceTickMs: opts.presenceTickMs } : {}),
      ...(opts.deltaLogSize ? { deltaLogSize: opts.deltaLogSize } : {}),
      ...(opts.push ? { push: opts.push } : {}),
      ...(opts.linkPreviews ? { linkPreviews: opts.linkPreviews } : {}),
      ...(opts.signIn ? { signIn: opts.signIn } : {}),
      ...(opts.messageEditWindowSeconds ? { messageEditWindowSeconds: opts.messageEditWindowSeconds } : {}),
      ...(opts.defaultLocale ? { defaultLocale: opts.defaultLocale } : {}),
      digest: { afterMinutes: opts.digestAfterMinutes ?? 30 },
    },
  );
  // In the order they serve each other: the gateway follows the ledger before Office re-arms
  // its retries, so the events those write reach the projections.
  await ledger.start();
  await gateway.start();
  // On PostgreSQL Office, Web Push and the digest run in the one process holding the lease (src/server-pg.ts).
  if (opts.databaseUrl)
    lease = await holdOfficeLease({
      url: opts.databaseUrl,
      logger,
      onAcquired: () => office.start(),
      onLost: () => office.close(),
    });
  else await office.start();

  const seeded = opts.demo ? await gateway.seedDemo() : null;

  const app = createApp({
    middleware: [
      securityHeaders(),
      closeUnreadBodies(),
      wellFormedUrl(),
      bodyLimits(),
      wellFormedText(),
      ...(opts.middleware ?? []),
    ],
    routes: [
      ...(opts.routes ?? []),
      gateway.routes(),
      // The ledger's and Office's own routes, behind the gateway's sign-in and its one read rule
      // (src/gateway/visibility.ts) for ledger queries, streams and the trajectory.
      ledger.routes(gateway.guard),
      office.routes(gateway.guard),
      createStaticRoutes({ webDir: opts.webDir }),
    ],
    health: () => ({ planner: plannerActive, ...gateway.health() }),
    onUnexpectedError: (err, traceId) => logger.error({ err, trace_id: traceId }, "unexpected error"),
    onStorageError: (err) => logger.error({ err }, "storage full or unavailable: a write was refused"),
  });

  // Started last, once nothing above can fail: its thread holds a connection of its own.
  const checkpointer = startWalCheckpointer(db, { path: databasePath(opts.dataDir), sync: opts.ledgerSync ?? "full" });
  let server: ServerType | undefined;
  const result: LogLineServer<HostLedgerApi> = {
    app,
    db,
    ledger: ledger.api,
    followLagSeconds: () => pg?.ledger.api.followLagSeconds() ?? 0,
    office: office.api,
    gateway,
    planner: plannerActive,
    demo: seeded,
    async listen() {
      const port = await new Promise<number>((resolve, reject) => {
        const tm = { ...DEFAULT_HTTP_TIMEOUTS, ...opts.httpTimeouts };
        // Slow or stalled clients are dropped: headers, the whole request body, and idle
        // keep-alive each have a deadline, checked every second. Streams (responses) are not cut.
        server = serve(
          {
            fetch: app.fetch,
            port: opts.port ?? 3000,
            hostname: opts.host ?? "127.0.0.1",
            serverOptions: {
              headersTimeout: tm.headersMs,
              requestTimeout: tm.requestMs,
              keepAliveTimeout: tm.keepAliveMs,
              connectionsCheckingInterval: 1000,
            },
          },
          (info: AddressInfo) => resolve(info.port),
        );
        server.once("error", reject);
      });
      const host = opts.host && opts.host !== "0.0.0.0" && opts.host !== "::" ? opts.host : "127.0.0.1";
      const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
      result.url = url;
      const base = opts.publicUrl ?? url;
      gateway.setPublicUrl(base);
      if (opts.demo) {
        result.demo = writeDemoFile(opts.dataDir, seeded, base);
        const dan = result.demo?.humans[0];
        if (dan)
          logger.info(
            { signin_url: dan.signin_url, demo_file: join(opts.dataDir, "demo.json") },
            `Demo: sign in as ${dan.display_name} → ${dan.signin_url}`,
          );
      }
      return { url, port };
    },
    async close() {
      // Event streams end first (they never go idle on their own); then the server stops
      // listening and closes connections as they go idle, so a request in flight — and the
      // append behind it — is answered rather than cut. Only after the grace period are the
      // remaining connections cut.
      const gatewayClosed = gateway.close();
      if (server) {
        const s = server as ServerType & { closeAllConnections?: () => void; closeIdleConnections?: () => void };
        await new Promise<void>((resolve) => {
          const idle = setInterval(() => s.closeIdleConnections?.(), 25);
          const force = setTimeout(() => s.closeAllConnections?.(), opts.closeGraceMs ?? 5000);
          s.close(() => {
            clearInterval(idle);
            clearTimeout(force);
            resolve();
          });
          s.closeIdleConnections?.();
        });
      }
      await lease?.close();
      office.close();
      await gatewayClosed;
      if (pg) await pg.close();
      else await ledger.close();
      await checkpointer.stop();
      db.close();
    },
  };
  return result;
}

/** Sign-in links by email go through the same SMTP settings as Office's mail, sent from MAIL_FROM. */
function signInMailerFor(mail: MailConfig | undefined): SignInMailer | undefined {
  if (!mail) return undefined;
  const transport = createSmtpTransport(mail);
  return {
    async send(m) {
      await transport.send({ from: mail.from, to: m.to, subject: m.subject, text: m.text });
    },
  };
}
