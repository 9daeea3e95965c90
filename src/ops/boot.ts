import type { Config } from "../config.js";
import type { HostLedgerApi } from "../ledger/index.js";
import { createServer, type LogLineServer } from "../server.js";
import { openDatabase } from "../shared/db.js";
import { databasePath } from "./data-dir.js";
import type { Logger } from "./logger.js";
import type { OpsRuntime } from "./runtime.js";
import { rotateEntityTokens } from "./token-rotation.js";

/** How long EventSource clients wait before reconnecting after a shutdown closed their stream. */
const RECONNECT_MS = 2000;

/**
 * Builds the server with the ops hooks (request observer first in the middleware, `/readyz` and
 * `/metrics` in the routes), starts listening, and registers the shutdown order:
 * 1. new requests are refused (503 + Connection: close; event-stream requests are dropped so
 *    EventSource retries) while requests in flight — and so their appends — finish;
 * 2. open event streams get a `retry:` frame and end, after every committed event reached them;
 * 3. the server stops listening, Office stops, the ledger flushes queued appends, the db closes.
 * Readiness is false from the first step on.
 */
export async function bootServer(deps: {
  config: Config;
  logger: Logger;
  ops: OpsRuntime;
}): Promise<{ url: string; server: LogLineServer<HostLedgerApi>; planner: string }> {
  const { config, logger, ops } = deps;
  const started = performance.now();
  const server = await createServer({
    dataDir: config.dataDir,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    port: config.port,
    host: config.host,
    demo: config.demo,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    ...(config.signup ? { signup: config.signup } : {}),
    trustedProxies: config.trustedProxies,
    logger,
    rateLimit: { capacity: config.rateLimit.burst, refillPerSecond: config.rateLimit.perMinute / 60 },
    streamLimits: config.streams,
    signIn: { linkTtlMs: config.signInLinkTtlMinutes * 60_000 },
    httpTimeouts: config.httpTimeouts,
    ledgerSync: config.ledgerSync,
    logName: config.logName,
    messageEditWindowSeconds: config.messageEditWindowSeconds,
    digestAfterMinutes: config.digestAfterMinutes,
    defaultLocale: config.defaultLocale,
    linkPreviews: config.linkPreviews,
    office: config.office,
    connectors: {
      jitsiBaseUrl: config.jitsiBaseUrl,
      calls: config.jitsiConfigured,
      mcpServers: config.mcp.servers,
      ...(config.mail ? { mail: config.mail } : {}),
      ...(config.caldav ? { caldav: config.caldav } : {}),
      ...(config.imap ? { imap: config.imap } : {}),
    },
    middleware: ops.middleware,
    // Every module appends through this one ledger, so its hook times the gateway's, Office's
    // and the REST route's appends alike.
    onAppend: (ms) => ops.observeAppend(ms),
    routes: [ops.routes],
  });
  const rebuildSeconds = (performance.now() - started) / 1000;
  // The planner actually in use: with OFFICE_PLANNER=llm and the endpoint unusable at boot,
  // Office may have fallen back to rules.
  const planner = server.planner;

  const unobserve = ops.observeLedger(server.ledger);
  ops.observeInbox(() => server.office.inboxPending());
  if (config.databaseUrl) ops.setFollowLag(() => server.followLagSeconds());
  ops.admin.bind({
    rotateToken: (tenantId, entityId) => rotateEntityTokens(server, tenantId, entityId),
    createWorkspace: (name, owner) => server.gateway.createWorkspaceAsOperator(name, owner),
  });
  const probeDb = openDatabase({ path: databasePath(config.dataDir), sync: config.ledgerSync });
  ops.setProbeDb(probeDb);

  const { url } = await server.listen();
  const unpublish = ops.admin.publish(config.dataDir, url);
  ops.markBooted(rebuildSeconds);
  logger.info({ rebuild_ms: Math.round(rebuildSeconds * 1000) }, "boot complete");

  const budget = Math.max(100, config.shutdownTimeoutMs - 1000);
  // First: a stopping server takes no more admin commands.
  ops.shutdown.add({ name: "admin file", run: unpublish });
  let stopBy = 0;
  ops.shutdown.add({
    name: "requests in flight",
    run: async () => {
      stopBy = Date.now() + budget;
      const r = await ops.drain.drain(budget);
      if (!r.drained) logger.warn({ left: r.left }, "requests still in flight at the shutdown deadline");
    },
  });
  // Then what Office was answering when the signal came, in what is left of the same budget.
  // Anything unfinished stays in its durable inbox and is answered at the next start.
  ops.shutdown.add({
    name: "office inbox",
    run: async () => {
      const r = await server.office.drain(Math.max(0, stopBy - Date.now()));
      if (!r.drained)
        logger.warn(
          { left: r.left },
          "Office work still running at the shutdown deadline; it is answered at the next start",
        );
    },
  });
  ops.shutdown.add({
    name: "event streams",
    run: () => void logger.info({ closed: ops.sse.closeAll(RECONNECT_MS) }, "closed event streams with a retry hint"),
  });
  ops.shutdown.add({ name: "server", run: () => server.close() });
  ops.shutdown.add({
    name: "ops",
    run: () => {
      unobserve();
      probeDb.close();
    },
  });
  return { url, server, planner };
}
