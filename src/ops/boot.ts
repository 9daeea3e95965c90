import type { Hono, MiddlewareHandler } from "hono";
import type { Config } from "../config.js";
import type { LedgerApi } from "../ledger/index.js";
import { openDatabase } from "../shared/db.js";
import { databasePath } from "./data-dir.js";
import type { Logger } from "./logger.js";
import type { OpsRuntime } from "./runtime.js";

/** The part of `createServer` (src/server.ts) the composition root relies on. */
export interface ServerOptions {
  dataDir: string;
  port?: number;
  host?: string;
  demo?: boolean;
  publicUrl?: string;
  logger?: Logger;
  rateLimit?: { capacity: number; refillPerSecond: number };
  ledgerSync?: "full" | "normal";
  office?: Config["office"];
  /** Run before every route (the ops request observer). */
  middleware?: MiddlewareHandler[];
  /** Extra route groups (the ops `/readyz` and `/metrics`). */
  routes?: Hono[];
}
export interface RunningServer {
  app: Hono;
  ledger: LedgerApi;
  listen(): Promise<unknown>;
  close(): Promise<void> | void;
}
type CreateServer = (opts: ServerOptions) => Promise<RunningServer>;

// A plain string so this file compiles before and after src/server.ts changes shape; the
// options above are what it is asked for.
const SERVER_MODULE = "../server.js";

/** How long EventSource clients wait before reconnecting after a shutdown closed their stream. */
export const RECONNECT_MS = 2000;

/**
 * Builds the server with the ops hooks, starts listening, and registers the shutdown order:
 * readiness goes false at once (shutdown flag), open SSE streams get a `retry:` frame and end,
 * then the server stops accepting, waits for in-flight requests (and so in-flight appends),
 * stops Office and closes the ledger and database.
 */
export async function bootServer(deps: { config: Config; logger: Logger; ops: OpsRuntime }): Promise<{ url: string; server: RunningServer }> {
  const { config, logger, ops } = deps;
  const { createServer } = (await import(SERVER_MODULE)) as { createServer: CreateServer };
  const started = performance.now();
  const server = await createServer({
    dataDir: config.dataDir,
    port: config.port,
    host: config.host,
    demo: config.demo,
    publicUrl: config.publicUrl,
    logger,
    rateLimit: { capacity: config.rateLimit.burst, refillPerSecond: config.rateLimit.perMinute / 60 },
    ledgerSync: config.ledgerSync,
    office: config.office,
    middleware: ops.middleware,
    routes: [ops.routes],
  });
  const rebuildSeconds = (performance.now() - started) / 1000;

  // Every module holds this same ledger object and calls `ledger.append(…)` through it, so
  // timing the property here covers appends from the gateway, Office and the REST route alike.
  server.ledger.append = ops.timeAppend(server.ledger.append.bind(server.ledger));
  const unobserve = ops.observeLedger(server.ledger);
  const probeDb = openDatabase({ path: databasePath(config.dataDir), sync: config.ledgerSync });
  ops.setProbeDb(probeDb);

  const listening = (await server.listen()) as { port?: number; url?: string } | undefined;
  const port = listening?.port ?? config.port;
  const url = listening?.url ?? `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  ops.markBooted(rebuildSeconds);
  logger.info({ rebuild_ms: Math.round(rebuildSeconds * 1000) }, "boot complete");

  ops.shutdown.add({ name: "sse streams", run: () => void logger.info({ closed: ops.sse.closeAll(RECONNECT_MS) }, "closed event streams with a retry hint") });
  ops.shutdown.add({ name: "server", run: () => server.close() });
  ops.shutdown.add({ name: "ops", run: () => {
      unobserve();
      probeDb.close();
    } });
  return { url, server };
}
