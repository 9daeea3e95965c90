import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config.js";
import { verifyDataDir } from "./verify-command.js";

/**
 * `npm run verify [-- --tenant T] [--data-dir D]`: the same verify as `npm run logline -- verify`
 * (same configuration, DATA_DIR from the environment or `.env`, same output and exit codes).
 */
try {
  const { values } = parseArgs({ options: { tenant: { type: "string" }, "data-dir": { type: "string" } } });
  const config = loadConfig({ ...process.env, ...(values["data-dir"] ? { DATA_DIR: values["data-dir"] } : {}) });
  process.exitCode = verifyDataDir(config.dataDir, values.tenant);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode =
    err instanceof ConfigError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ? 2 : 1;
}
