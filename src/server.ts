import type { Locale } from "./shared/i18n.js";
import { serve, type ServerType } from "@hono/node-server";
import type { Hono, Context, MiddlewareHandler } from "hono";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createRouter } from "./shared/openapi.js";
import { createApp } from "./app.js";
import {
  bodyLimits,
  closeUnreadBodies,
  wellFormedText,
  wellFormedUrl,
  conversationFilterFor,
  createGateway,
  createGatewayRoutes,
  createStaticRoutes,
  eventFilterFor,
  moduleGuard,
  securityHeaders,
  seedDemo,
  writeDemoFile,
  type DemoInfo,
  type Gateway,
  type GwEnv,
  type Logger,
  type PreviewSettings,
  type RateLimitConfig,
  type SignInMailer,
  type StreamLimits,
} from "./gateway/index.js";
import { createLedger, createLedgerRoutes, type LedgerApi } from "./ledger/index.js";
import type { CalDavConfig, ImapConfig, MailConfig } from "./office/settings.js";
import {
  createCalDavCalendar,
  createOffice,
  createSmtpTransport,
  createOfficeRoutes,
  createRulesPlanner,
  type CalDavCalendar,
  type Office,
  type Planner,
} from "./office/index.js";
import { selectPlanner } from "./office/index.js";
import type { LlmConfig, McpServerConfig } from "./office/settings.js";
import { databasePath } from "./ops/data-dir.js";
import { systemClock, type Clock } from "./shared/clock.js";
import { openDatabase, type Db } from "./shared/db.js";
import type { IdGenerator } from "./shared/ids.js";

export interface ServerOptions {
  dataDir: string;
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

export interface LogLineServer {
  app: ReturnType<typeof createApp>;
  db: Db;
  ledger: LedgerApi;
  office: Office;
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
export async function createServer(opts: ServerOptions): Promise<LogLineServer> {
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? consoleLogger;
  const db = openDatabase({ path: databasePath(opts.dataDir), sync: opts.ledgerSync ?? "full" });
  const ledger = createLedger({
    db,
    dataDir: opts.dataDir,
    clock,
    ...(opts.ids ? { ids: opts.ids } : {}),
    onListenerError: (err) => logger.error({ err }, "ledger listener failed"),
    ...(opts.onAppend ? { onAppend: opts.onAppend } : {}),
    ...(opts.logName ? { logName: opts.logName } : {}),
    ...(opts.messageEditWindowSeconds
      ? { policyParams: { message_edit_window_seconds: opts.messageEditWindowSeconds } }
      : {}),
  });

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
  const office = createOffice({
    ledger,
    db,
    dataDir: opts.dataDir,
    clock,
    ...(opts.ids ? { ids: opts.ids } : {}),
    ...(planner ? { planner } : {}),
    ...(calendar ? { calendarProvider: calendar } : {}),
    ...(opts.connectors?.jitsiBaseUrl ? { jitsiBaseUrl: opts.connectors.jitsiBaseUrl } : {}),
    // Start a call names rooms only on a Jitsi server someone configured, never on the default.
    ...(opts.connectors?.calls && opts.connectors.jitsiBaseUrl ? { calls: true } : {}),
    ...(opts.connectors?.mail ? { mail: opts.connectors.mail } : {}),
    ...(opts.connectors?.imap ? { imap: opts.connectors.imap } : {}),
    ...(opts.connectors?.mcpServers ? { mcpServers: opts.connectors.mcpServers } : {}),
    ...(opts.retrySchedule ? { retrySchedule: opts.retrySchedule } : {}),
    ...(opts.defaultLocale ? { defaultLocale: opts.defaultLocale } : {}),
    logger: { error: (o, m) => logger.error(o as object, m), info: (o, m) => logger.info(o as object, m) },
  });
  const signInMailer = signInMailerFor(opts.connectors?.mail);
  const gateway = createGateway({
    ledger,
    office,
    db,
    dataDir: opts.dataDir,
    clock,
    ...(opts.ids ? { ids: opts.ids } : {}),
    logger,
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
    signIn: { ...opts.signIn, ...(signInMailer ? { mailer: signInMailer } : {}) },
    ...(opts.messageEditWindowSeconds ? { messageEditWindowSeconds: opts.messageEditWindowSeconds } : {}),
    ...(opts.defaultLocale ? { defaultLocale: opts.defaultLocale } : {}),
    // The digest goes out through the same SMTP settings as sign-in links.
    digest: { afterMinutes: opts.digestAfterMinutes ?? 30, ...(signInMailer ? { mailer: signInMailer } : {}) },
  });
  // After the gateway follows the ledger, so events from re-armed retries reach the projections.
  await office.start();

  const seeded = opts.demo ? await seedDemo(gateway.core) : null;

  const guarded = createRouter<GwEnv>();
  const guard = moduleGuard(gateway.core);
  guarded.use("/v1/ledger/*", guard);
  guarded.use("/v1/office/*", guard);
  guarded.use("/v1/agents/:entity_id/trajectory", guard);
  // One read rule (src/gateway/visibility.ts) for ledger queries and streams and the trajectory.
  const reader = (c: Context<GwEnv>) => c.get("principal");
  guarded.route(
    "/",
    createLedgerRoutes<GwEnv>(ledger, {
      loopbackOnly: false,
      readFilter: (c) => eventFilterFor(gateway.core, reader(c)),
    }),
  );
  guarded.route(
    "/",
    createOfficeRoutes<GwEnv>(office, { conversationFilter: (c) => conversationFilterFor(gateway.core, reader(c)) }),
  );

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
      createGatewayRoutes(gateway),
      guarded,
      createStaticRoutes({ webDir: opts.webDir }),
    ],
    health: () => ({ planner: plannerActive, sse_clients: gateway.core.hub.clientCount() }),
    onUnexpectedError: (err, traceId) => logger.error({ err, trace_id: traceId }, "unexpected error"),
    onStorageError: (err) => logger.error({ err }, "storage full or unavailable: a write was refused"),
  });

  let server: ServerType | undefined;
  const result: LogLineServer = {
    app,
    db,
    ledger,
    office,
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
      office.stop();
      await gatewayClosed;
      ledger.close();
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
