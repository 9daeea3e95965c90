import { statfsSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { timingSafeEqual } from "node:crypto";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createRouter, json, route } from "../shared/openapi.js";
import type { Db } from "../shared/db.js";
import type { LoglineMetrics } from "./metrics.js";

export interface ReadinessCheck {
  ok: boolean;
  [detail: string]: unknown;
}

interface ReadinessDeps {
  /** A connection to the live database, used only to probe that a write lock can be taken. */
  db?: Db | undefined;
  dataDir?: string;
  /** True once boot finished: migrations applied, projections rebuilt from the ledger. */
  isBooted(): boolean;
  isShuttingDown(): boolean;
  /** The planner in use and, when the runtime can tell, whether it is answering. Informative only. */
  planner(): { kind: string; state?: string };
  /** The boot-time `PRAGMA quick_check` of the whole database (every table, not only the ledger's). */
  bootCheck?(): ReadinessCheck | undefined;
  /** On PostgreSQL: seconds since this process last had every other process's commits. */
  followLag?(): number | undefined;
}

/** A process further behind the shared ledger than this is not ready: the balancer sends its clients elsewhere. */
const MAX_FOLLOW_LAG_SECONDS = 5;

/** Below this much free space in DATA_DIR readiness fails: appends are about to answer 507. */
const MIN_FREE_BYTES = 8 * 1024 * 1024;

/**
 * What `/readyz` reports. Ready means: boot done, not shutting down, the database takes a write
 * lock (not read-only, not wedged) and the data dir has room. The planner's state is reported,
 * never gated on: with an LLM down, Office still answers with a clarifying question.
 */
function checkReadiness(deps: ReadinessDeps): { ready: boolean; checks: Record<string, ReadinessCheck> } {
  const checks: Record<string, ReadinessCheck> = {};
  checks.boot = { ok: deps.isBooted(), projections_rebuilt: deps.isBooted() };
  checks.shutdown = { ok: !deps.isShuttingDown(), shutting_down: deps.isShuttingDown() };
  if (deps.db) checks.database = probeWritable(deps.db);
  const structure = deps.bootCheck?.();
  if (structure) checks.structure = structure;
  if (deps.dataDir) checks.disk = probeDisk(deps.dataDir);
  const lag = deps.followLag?.();
  if (lag !== undefined) checks.follow = { ok: lag <= MAX_FOLLOW_LAG_SECONDS, lag_seconds: Math.round(lag * 10) / 10 };
  checks.planner = { ok: true, ...deps.planner() };
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}

/**
 * SQLite's quick_check over every table and index (the ledger's, Office's, the gateway's): a
 * damaged page anywhere is reported, with the first problems SQLite names.
 */
export function quickCheck(db: Db): ReadinessCheck {
  try {
    const rows = db.prepare("PRAGMA quick_check(5)").pluck().all() as string[];
    return rows.length === 1 && rows[0] === "ok" ? { ok: true, quick_check: "ok" } : { ok: false, quick_check: rows };
  } catch (err) {
    return { ok: false, quick_check: [(err as Error).message] };
  }
}

function probeWritable(db: Db): ReadinessCheck {
  try {
    // BEGIN IMMEDIATE takes the write lock without writing a page: fails on a read-only file or
    // a lock held past busy_timeout, costs no fsync.
    db.prepare("BEGIN IMMEDIATE").run();
    db.prepare("ROLLBACK").run();
    return { ok: true, writable: true };
  } catch (err) {
    if (db.inTransaction) db.prepare("ROLLBACK").run();
    return { ok: false, writable: false, error: (err as Error).message };
  }
}

function probeDisk(dir: string): ReadinessCheck {
  try {
    const s = statfsSync(dir);
    const free = s.bavail * s.bsize;
    return { ok: free >= MIN_FREE_BYTES, free_bytes: free };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

export interface OpsRoutesDeps extends ReadinessDeps {
  metrics: LoglineMetrics;
  /** Non-loopback callers may read /metrics with `Authorization: Bearer <token>`. */
  metricsToken?: string;
}

/** `/readyz` and `/metrics`. (`/healthz`, liveness, is the app's own.) */
export function createOpsRoutes(deps: OpsRoutesDeps): OpenAPIHono {
  const app = createRouter();
  const readyz = createRoute({
    method: "get",
    path: "/readyz",
    summary: "Readiness: booted, database writable and undamaged, disk space, not stopping, planner",
    tags: ["Operations"],
    responses: { 200: json(ZReadiness, "Ready"), 503: json(ZReadiness, "Not ready (the failing checks say why)") },
  });
  route(app, readyz, (c) => {
    const r = checkReadiness(deps);
    return c.json({ ok: r.ready, checks: r.checks }, r.ready ? 200 : 503);
  });
  const metrics = createRoute({
    method: "get",
    path: "/metrics",
    summary: "Prometheus metrics (loopback callers, or Bearer METRICS_TOKEN)",
    tags: ["Operations"],
    responses: {
      200: { description: "Prometheus text format", content: { "text/plain": { schema: z.string() } } },
      403: { description: "Neither local nor the metrics token" },
    },
  });
  route(app, metrics, (c) => {
    if (!isLocalCaller(c) && !hasBearer(c, deps.metricsToken)) {
      return c.json(
        { error: { code: "FORBIDDEN", message: "Metrics are served to loopback callers or with the metrics token." } },
        403,
      );
    }
    return c.body(deps.metrics.registry.render(), 200, {
      "content-type": "text/plain; version=0.0.4; charset=utf-8",
      "cache-control": "no-store",
    });
  });
  return app;
}

const ZReadiness = z.object({ ok: z.boolean(), checks: z.record(z.string(), z.unknown()) });

/**
 * A direct connection from this machine. A request that came through a reverse proxy also
 * arrives from 127.0.0.1, so any forwarding header disqualifies it: otherwise the proxy would
 * publish /metrics to the internet.
 */
export function isLocalCaller(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const addr = incoming?.socket?.remoteAddress;
  if (!addr) return false;
  const loopback = addr === "::1" || addr.startsWith("127.") || addr.startsWith("::ffff:127.");
  const proxied = ["x-forwarded-for", "forwarded", "x-real-ip", "x-forwarded-host"].some(
    (h) => c.req.header(h) !== undefined,
  );
  return loopback && !proxied;
}

/** `Authorization: Bearer <token>` with exactly `token`, compared in constant time; false when no token is set. */
export function hasBearer(c: Context, token: string | undefined): boolean {
  if (!token) return false;
  const m = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "");
  if (!m) return false;
  const a = Buffer.from(m[1]!);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
