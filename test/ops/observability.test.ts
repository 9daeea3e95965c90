import { afterEach, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono } from "hono";
import { createApp } from "../../src/app.js";
import { createLogger } from "../../src/ops/logger.js";
import { createOpsRuntime } from "../../src/ops/runtime.js";
import { openDatabase } from "../../src/shared/db.js";
import { tempDir } from "../ledger/helpers.js";

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function capture() {
  const lines: Record<string, unknown>[] = [];
  let raw = "";
  const stream = new Writable({
    write(chunk, _enc, cb) {
      raw += chunk.toString();
      for (const l of chunk.toString().split("\n")) if (l.trim()) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { lines, stream, raw: () => raw };
}

/** A small app shaped like the real one: an auth-ish middleware, a write, a crash, an SSE route. */
function build() {
  const out = capture();
  const logger = createLogger({ level: "info", destination: out.stream });
  const dir = tempDir("ops-");
  cleanups.push(() => dir.cleanup());
  const ops = createOpsRuntime({
    logger,
    dataDir: dir.dir,
    planner: () => ({ kind: "rules" }),
    metricsToken: "m".repeat(32),
    shutdownTimeoutMs: 2000,
  });
  const db = openDatabase({ path: `${dir.dir}/logline.sqlite` });
  cleanups.push(() => void db.close());
  ops.setProbeDb(db);
  const routes = new Hono();
  routes.use("/v1/*", async (c, next) => {
    if (c.req.header("authorization") === "Bearer llt_secret-token-value")
      c.set("tenant_id" as never, "tnt_acme_001" as never);
    await next();
  });
  routes.post("/v1/conversations/:id/messages", async (c) => {
    const body = await c.req.json();
    logger.info({ body, token: "llt_secret-token-value" }, "a careless module log line");
    return c.json({ accepted: true }, 202);
  });
  routes.get("/v1/boom", () => {
    throw new Error("kaboom with dan@acme.com inside");
  });
  routes.get("/v1/stream", (c) => {
    const res = (c.env as { outgoing: import("node:http").ServerResponse }).outgoing;
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("retry: 2000\n\nid: seq:1\nevent: hello\ndata: {}\n\n");
    return RESPONSE_ALREADY_SENT;
  });
  const app = createApp({
    routes: [routes, ops.routes],
    middleware: ops.middleware,
    onUnexpectedError: (err, traceId) => logger.error({ err, trace_id: traceId }, "unexpected"),
  });
  return { app, ops, out };
}

async function listen(app: {
  fetch: (req: Request, env?: any) => Response | Promise<Response>;
}): Promise<{ url: string; server: ServerType }> {
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await once(server, "listening");
  cleanups.push(
    () =>
      new Promise<void>(
        (r) => ((server as unknown as { closeAllConnections(): void }).closeAllConnections(), server.close(() => r())),
      ),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("request logs", () => {
  it("carry trace_id, tenant, route pattern, status and latency — and never tokens, PII or bodies", async () => {
    const { app, out } = build();
    const { url } = await listen(app);
    const secretBody = { text: "call maria@example.com at +1 555 0100 about the invoice", token: "llt_other" };
    const res = await fetch(`${url}/v1/conversations/cnv_9f2a/messages?token=llt_in_query`, {
      method: "POST",
      headers: {
        authorization: "Bearer llt_secret-token-value",
        cookie: "ll_session=llt_cookie",
        "content-type": "application/json",
        "x-trace-id": "trc_client_1",
      },
      body: JSON.stringify(secretBody),
    });
    expect(res.status).toBe(202);
    expect(res.headers.get("x-trace-id")).toBe("trc_client_1");
    await fetch(`${url}/v1/invites/inv_secret_invite_token/accept`, { method: "POST" });
    const boom = await fetch(`${url}/v1/boom`);
    const boomBody = (await boom.json()) as { error: { details: { trace_id: string } } };

    const request = out.lines.find((l) => l.msg === "request" && l.route === "/v1/conversations/:id/messages")!;
    expect(request).toMatchObject({
      trace_id: "trc_client_1",
      tenant: "tnt_acme_001",
      method: "POST",
      status: 202,
      level: "info",
    });
    expect(typeof request.latency_ms).toBe("number");
    expect(out.lines.find((l) => l.status === 404)).toMatchObject({ route: "(unmatched)" });
    const failed = out.lines.find((l) => l.msg === "request failed")!;
    expect(failed).toMatchObject({ route: "/v1/boom", status: 500 });
    // The 500's body names the minted trace id, and so does the log line.
    expect(boomBody.error.details.trace_id).toBe(failed.trace_id);

    const raw = out.raw();
    for (const secret of [
      "llt_secret-token-value",
      "llt_other",
      "llt_in_query",
      "llt_cookie",
      "maria@example.com",
      "555 0100",
      "about the invoice",
      "inv_secret_invite_token",
      "cnv_9f2a",
    ]) {
      expect(raw, secret).not.toContain(secret);
    }
  });
});

describe("/metrics and /readyz", () => {
  it("reports how late the event loop ran (perf_hooks.monitorEventLoopDelay) since the previous scrape", async () => {
    const { app } = build();
    const { url } = await listen(app);
    await fetch(`${url}/metrics`);
    // Hold the loop for 300 ms, the way a slow check on a request would.
    await new Promise((r) => setTimeout(r, 30));
    const until = performance.now() + 300;
    while (performance.now() < until);
    await new Promise((r) => setTimeout(r, 30));
    const text = await (await fetch(`${url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
    expect(text).toMatch(/# TYPE logline_event_loop_delay_max_seconds gauge/);
    expect(value("logline_event_loop_delay_max_seconds")).toBeGreaterThanOrEqual(0.25);
    expect(value("logline_event_loop_delay_p99_seconds")).toBeGreaterThanOrEqual(0.25);
    expect(value("logline_event_loop_delay_mean_seconds")).toBeGreaterThan(0);
    // The next scrape covers only the time since this one.
    const again = await (await fetch(`${url}/metrics`)).text();
    expect(Number(/^logline_event_loop_delay_max_seconds (\S+)$/m.exec(again)?.[1])).toBeLessThan(0.25);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it("serves Prometheus text to loopback callers only, counting requests, events, SSE clients", async () => {
    const { app, ops } = build();
    const { url } = await listen(app);
    ops.markBooted(0.25);
    await fetch(`${url}/v1/boom`);
    const stream = await fetch(`${url}/v1/stream`);
    const reader = stream.body!.getReader();
    await reader.read();
    expect(ops.sse.open()).toBe(1);

    // A fake ledger tail: events by type, tool outcomes, violations by code.
    const listeners: Array<(e: unknown) => void> = [];
    ops.observeLedger({ subscribe: (l: (e: unknown) => void) => (listeners.push(l), () => {}) } as never);
    for (const e of [
      { event_type: "message.sent", payload: {} },
      { event_type: "tool.result", payload: { tool_name: "calendar.create_invite", status: "success" } },
      {
        event_type: "tool.result",
        payload: { tool_name: "calendar.create_invite", status: "error", error: { error_code: "TIMEOUT" } },
      },
      { event_type: "policy.violation", payload: { code: "INVALID_PROVENANCE" } },
    ])
      for (const l of listeners) l(e);
    ops.observeAppend(3);
    ops.observeInbox(() => 3);

    const text = await (await fetch(`${url}/metrics`)).text();
    expect(text).toContain('logline_http_requests_total{method="GET",route="/v1/boom",status="500"} 1');
    expect(text).toContain("logline_sse_clients 1");
    expect(text).toContain("logline_office_inbox_pending 3");
    expect(text).toContain("logline_projection_rebuild_seconds 0.25");
    expect(text).toContain('logline_ledger_events_total{type="message.sent"} 1');
    expect(text).toContain('logline_tool_calls_total{outcome="TIMEOUT",tool="calendar.create_invite"} 1');
    expect(text).toContain('logline_tool_calls_total{outcome="success",tool="calendar.create_invite"} 1');
    expect(text).toContain('logline_policy_violations_total{code="INVALID_PROVENANCE"} 1');
    expect(text).toContain("logline_ledger_append_duration_seconds_count 1");
    expect(text).toMatch(/# TYPE logline_http_request_duration_seconds histogram/);

    // Through a reverse proxy every caller looks local; the forwarding header gives it away.
    expect((await fetch(`${url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.9" } })).status).toBe(403);
    expect(
      (
        await fetch(`${url}/metrics`, {
          headers: { "x-forwarded-for": "203.0.113.9", authorization: `Bearer ${"m".repeat(32)}` },
        })
      ).status,
    ).toBe(200);

    // Shutdown: the stream gets a retry hint and ends; the gauge follows.
    expect(ops.sse.closeAll(2000)).toBe(1);
    let rest = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toBe("retry: 2000\n\n");
    await new Promise((r) => setTimeout(r, 20));
    expect(ops.sse.open()).toBe(0);
  });

  it("is not ready before boot, is ready after, and turns unready when shutdown starts", async () => {
    const { app, ops } = build();
    const before = await app.request("/readyz");
    expect(before.status).toBe(503);
    ops.markBooted();
    const ready = await app.request("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ok: true,
      checks: {
        database: { ok: true, writable: true },
        planner: { kind: "rules" },
        boot: { projections_rebuilt: true },
      },
    });
    ops.shutdown.add({ name: "slow", run: () => new Promise((r) => setTimeout(r, 50)) });
    const stopping = ops.shutdown.shutdown("test");
    expect((await app.request("/readyz")).status).toBe(503);
    expect(await stopping).toBe(0);
    expect((await app.request("/healthz")).status).toBe(200);
  });
});
