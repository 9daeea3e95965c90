import type { ServerResponse } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { newId } from "../shared/ids.js";
import type { Logger } from "./logger.js";
import type { LoglineMetrics } from "./metrics.js";
import type { SseTracker } from "./sse-tracker.js";
import type { RequestDrain } from "./drain.js";

export interface RequestObserverDeps {
  logger: Logger;
  /** Tracks requests in flight and refuses new ones once shutdown began (see drain.ts). */
  drain?: RequestDrain;
  metrics?: LoglineMetrics;
  sse?: SseTracker;
  /** Paths not worth a log line each (probes, scrapes); still counted in metrics. */
  quietPaths?: string[];
}

/**
 * One structured line per request: trace_id, tenant, route, method, status, latency. It logs the
 * route *pattern* (`/v1/invites/:invite_token/accept`), never the raw path or query, so ids,
 * invite tokens and `?token=` sign-in links cannot leak into logs; no headers, no bodies.
 * The trace id is Hono's request id (`requestId` in src/app.ts: a well-formed `x-trace-id`
 * header, or a new one), echoed in the response header.
 */
export function createRequestObserver(deps: RequestObserverDeps): MiddlewareHandler {
  const quiet = new Set(deps.quietPaths ?? ["/healthz", "/readyz", "/metrics"]);
  return async (c, next) => {
    const started = performance.now();
    const traceId = (c.var as { requestId?: string }).requestId ?? newId("trc");
    if (
      deps.drain?.isDraining() &&
      !quiet.has(c.req.path) &&
      (c.req.header("accept") ?? "").includes("text/event-stream")
    ) {
      // An EventSource treats any non-200 answer as final and stops reconnecting; a dropped
      // connection is a network error, which it retries after its `retry:` delay.
      (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming?.socket?.destroy();
      return c.body(null, 503);
    }
    if (deps.drain?.isDraining() && !quiet.has(c.req.path)) {
      // Shutting down: no new work starts. Connection: close moves keep-alive clients off this
      // process; Retry-After tells them when to come back.
      c.header("connection", "close");
      c.header("retry-after", "2");
      return c.json(
        {
          error: {
            code: "SERVICE_UNAVAILABLE",
            message: "The server is restarting; retry in a few seconds.",
            details: { trace_id: traceId },
          },
        },
        503,
      );
    }
    const done = deps.drain?.enter();
    try {
      await next();
    } finally {
      done?.();
    }
    const seconds = (performance.now() - started) / 1000;
    const route = routeOf(c);
    const status = c.res.status;
    try {
      c.res.headers.set("x-trace-id", traceId);
    } catch {
      // Immutable headers (a fetched or already-sent response): the log line still has the id.
    }
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    const isStream =
      (c.res.headers.get("content-type") ?? "").startsWith("text/event-stream") || wroteEventStream(outgoing);
    if (isStream && outgoing) deps.sse?.track(outgoing);

    deps.metrics?.httpRequests.inc({ route, method: c.req.method, status });
    deps.metrics?.httpDuration.observe(seconds, { route });
    if (quiet.has(c.req.path) && status < 400) return;
    const tenant = tenantOf(c);
    const line = {
      trace_id: traceId,
      ...(tenant ? { tenant } : {}),
      method: c.req.method,
      route,
      status,
      latency_ms: Math.round(seconds * 10_000) / 10,
      ...(isStream ? { stream: true } : {}),
    };
    if (status >= 500) deps.logger.error(line, "request failed");
    else deps.logger.info(line, "request");
  };
}

/** The pattern of the handler that answered, e.g. `/v1/jobs/:job_id`; `(unmatched)` for 404s. */
function routeOf(c: Context): string {
  const routes = matchedRoutes(c);
  const answered = routes[c.req.routeIndex];
  if (!answered || (answered.method === "ALL" && answered.path.endsWith("*"))) return "(unmatched)";
  return answered.path;
}

/**
 * The tenant of an authenticated request, as the gateway's auth middleware records it:
 * `c.set("tenant_id", …)` or `c.set("auth", { tenant_id, … })`.
 */
function tenantOf(c: Context): string | undefined {
  const vars = c.var as Record<string, unknown>;
  const direct = vars.tenant_id;
  if (typeof direct === "string") return direct;
  for (const key of ["auth", "session", "principal"]) {
    const v = vars[key] as { tenant_id?: unknown; tenantId?: unknown } | undefined;
    const t = v?.tenant_id ?? v?.tenantId;
    if (typeof t === "string") return t;
  }
  return undefined;
}

/**
 * Streams written straight to the Node response (the gateway's SSE hub, for memory per client)
 * bypass Hono's Response; `writeHead(status, headers)` leaves no trace in `getHeader`, so the
 * head already serialised on the socket is the only place the content type shows.
 */
function wroteEventStream(res: ServerResponse | undefined): boolean {
  if (!res?.headersSent) return false;
  const raw: unknown = Reflect.get(res, "_header");
  const head = typeof raw === "string" ? raw : "";
  return /\r\ncontent-type:\s*text\/event-stream/i.test(head);
}
