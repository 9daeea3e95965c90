import { mkdirSync } from "node:fs";
import { ConfigError, describeConfig, loadConfig, type Config } from "./config.js";
import { DataKeyError } from "./shared/errors.js";
import { databasePath, runningServerPid, writePidFile } from "./ops/data-dir.js";
import { createLogger, flushLogs, type Logger } from "./ops/logger.js";
import { SchemaTooNewError, assertSchemaNotNewer } from "./ops/migration-guard.js";
import { createOpsRuntime } from "./ops/runtime.js";

/**
 * Composition root: configuration, logger, safety checks on the data dir, then the server
 * (ledger → office → gateway → web, built by createServer) with the ops middleware and routes,
 * and an orderly shutdown on SIGTERM.
 *
 * Exit codes: 0 stopped cleanly; 1 failed; 78 (EX_CONFIG) the configuration or the data dir
 * cannot work — systemd's unit does not restart on 78, since retrying cannot fix it.
 */
const EX_CONFIG = 78;

function fail(message: string, code: number, logger?: Logger): never {
  // One line on stderr whatever the log format, so `systemctl status` and a terminal show it.
  logger?.fatal(message);
  logger?.flush?.();
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(err.message, EX_CONFIG);
  throw err;
}

const logger = createLogger({ level: config.logLevel, pretty: config.prettyLogs });

try {
  mkdirSync(config.dataDir, { recursive: true });
} catch (err) {
  fail(`Cannot create DATA_DIR ${config.dataDir}: ${(err as Error).message}`, EX_CONFIG);
}
try {
  assertSchemaNotNewer(databasePath(config.dataDir));
} catch (err) {
  if (err instanceof SchemaTooNewError) fail(err.message, EX_CONFIG);
  fail(`Cannot open the database in ${config.dataDir}: ${(err as Error).message}`, 1);
}
const other = runningServerPid(config.dataDir);
if (other !== null) fail(`Another LogLine (pid ${other}) is already running on ${config.dataDir}`, 1);

let activePlanner: string | undefined;
const ops = createOpsRuntime({
  logger,
  dataDir: config.dataDir,
  planner: () => ({ kind: config.office.planner, state: activePlanner ? `active: ${activePlanner}` : "starting" }),
  ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
  shutdownTimeoutMs: config.shutdownTimeoutMs,
});
// Signals are handled from here on: a SIGTERM during boot still stops in order. The last lines
// are written before the exit, within a second: a log reader that takes nothing more cannot hold it.
ops.shutdown.installSignalHandlers((code) => void flushLogs().then(() => process.exit(code)));

logger.info(describeConfig(config), "starting");
try {
  // The server's modules load only now: a configuration or data dir that cannot work is refused
  // at once, before any of them is read.
  const { bootServer } = await import("./ops/boot.js");
  const running = await bootServer({ config, logger, ops });
  activePlanner = running.planner;
  const removePidFile = writePidFile(config.dataDir);
  ops.shutdown.add({ name: "pid file", run: removePidFile });
  logger.info({ url: running.url, public_url: config.publicUrl }, `LogLine listening on ${running.url}`);
} catch (err) {
  // A missing or wrong key is not fixed by restarting: exit as a configuration error.
  if (err instanceof DataKeyError) fail(`LogLine will not start: ${err.message}`, EX_CONFIG, logger);
  logger.fatal({ err }, "boot failed");
  fail(`LogLine failed to start: ${(err as Error).message}`, 1, logger);
}
