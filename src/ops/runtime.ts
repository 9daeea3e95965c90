import type { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { TStoredEvent } from "../../contracts/events.js";
import type { LedgerDoorApi } from "../ledger/index.js";
import type { Db } from "../shared/db.js";
import { createOpsRoutes, quickCheck, type ReadinessCheck } from "./health.js";
import type { Logger } from "./logger.js";
import { createLoglineMetrics, type LoglineMetrics } from "./metrics.js";
import { createRequestObserver } from "./request-log.js";
import { createShutdown, type ShutdownCoordinator } from "./shutdown.js";
import { createRequestDrain, type RequestDrain } from "./drain.js";
import { createSseTracker, type SseTracker } from "./sse-tracker.js";
import { createAdminEndpoint } from "./admin-endpoint.js";

export interface OpsRuntime {
  metrics: LoglineMetrics;
  sse: SseTracker;
  drain: RequestDrain;
  shutdown: ShutdownCoordinator;
  /** The loopback admin endpoint (token rotation on a running server) and its admin.json. */
  admin: ReturnType<typeof createAdminEndpoint>;
  /** For `createApp({ middleware })`: trace ids, request logs, request metrics, SSE tracking. */
  middleware: MiddlewareHandler[];
  /** `/readyz` and `/metrics`, mounted with the modules' routes. */
  routes: OpenAPIHono;
  /** Counts committed events by type, tool results by outcome, violations by code. */
  observeLedger(ledger: Pick<LedgerDoorApi, "subscribe">): () => void;
  /** One append's latency in ms (the ledger's `onAppend` hook) into the append histogram. */
  observeAppend(ms: number): void;
  /** Boot finished: migrations applied, projections rebuilt. `rebuildSeconds` is recorded. */
  markBooted(rebuildSeconds?: number): void;
  /** The database connection the readiness probe takes its write lock on. */
  setProbeDb(db: Db): void;
  /** Office's accepted-but-unanswered work, read at each scrape. */
  observeInbox(pending: () => number): void;
  /** On PostgreSQL: how far behind the shared ledger this process is; readiness fails past a few seconds. */
  setFollowLag(lagSeconds: () => number): void;
}

export function createOpsRuntime(deps: {
  logger: Logger;
  dataDir: string;
  planner: () => { kind: string; state?: string };
  metricsToken?: string;
  shutdownTimeoutMs: number;
}): OpsRuntime {
  const metrics = createLoglineMetrics();
  metrics.up.set(Math.floor(Date.now() / 1000));
  const sse = createSseTracker(metrics.sseClients);
  const drain = createRequestDrain();
  const shutdown = createShutdown({ logger: deps.logger, timeoutMs: deps.shutdownTimeoutMs });
  let booted = false;
  let probeDb: Db | undefined;
  let bootCheck: ReadinessCheck | undefined;
  let followLag: (() => number) | undefined;

  const routes = createOpsRoutes({
    metrics,
    ...(deps.metricsToken ? { metricsToken: deps.metricsToken } : {}),
    dataDir: deps.dataDir,
    get db() {
      return probeDb;
    },
    isBooted: () => booted,
    bootCheck: () => bootCheck,
    followLag: () => followLag?.(),
    isShuttingDown: () => shutdown.isShuttingDown(),
    planner: deps.planner,
  });
  const admin = createAdminEndpoint();
  routes.route("/", admin.routes);

  return {
    metrics,
    sse,
    drain,
    shutdown,
    admin,
    middleware: [createRequestObserver({ logger: deps.logger, metrics, sse, drain })],
    routes,
    observeLedger(ledger) {
      return ledger.subscribe((e: TStoredEvent) => {
        metrics.events.inc({ type: e.event_type });
        const p = (e as { payload?: Record<string, unknown> }).payload ?? {};
        if (e.event_type === "tool.result") {
          const error = p.error as { error_code?: string } | undefined;
          metrics.toolCalls.inc({
            tool: String(p.tool_name ?? "unknown"),
            outcome: p.status === "success" ? "success" : (error?.error_code ?? "error"),
          });
        } else if (e.event_type === "policy.violation") {
          metrics.policyViolations.inc({ code: String(p.code ?? "unknown") });
        }
      });
    },
    observeAppend(ms) {
      metrics.appendDuration.observe(ms / 1000);
    },
    markBooted(rebuildSeconds) {
      if (rebuildSeconds !== undefined) metrics.projectionRebuild.set(rebuildSeconds);
      booted = true;
    },
    observeInbox(pending) {
      metrics.registry.gauge(
        "logline_office_inbox_pending",
        "Accepted messages and clicks Office has not answered yet (its durable inbox).",
        pending,
      );
    },
    setFollowLag(lagSeconds) {
      followLag = lagSeconds;
      metrics.registry.gauge(
        "logline_follow_lag_seconds",
        "Seconds since this process last had every commit of the shared PostgreSQL ledger.",
        lagSeconds,
      );
    },
    setProbeDb(db) {
      probeDb = db;
      // Once per boot: a damaged page in any table shows on /readyz (503) until it is repaired.
      bootCheck = quickCheck(db);
      if (!bootCheck.ok)
        deps.logger.error({ quick_check: bootCheck.quick_check }, "database damaged: PRAGMA quick_check failed");
    },
  };
}
