import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { tempDir } from "../ledger/helpers.js";
import { afterThisTest, freePort, startMainProcess } from "../support/process.js";

/**
 * A server whose log reader has gone still stops on SIGTERM: the journal restarted, a terminal
 * closed, `logline | head` ended. Logging must never hold the event loop that handles the signal.
 */
describe("SIGTERM with the log pipe gone", () => {
  it.each(["stdout", "stdout and stderr"])(
    "stops within the shutdown deadline when %s is closed",
    async (closed) => {
      const dir = tempDir();
      afterThisTest(() => dir.cleanup());
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      // Debug lines, so the shutdown itself has plenty to write into the closed pipe.
      const env = {
        DATA_DIR: dir.dir,
        PORT: String(port),
        HOST: "127.0.0.1",
        LOGLINE_DEMO: "1",
        LOG_LEVEL: "debug",
        SHUTDOWN_TIMEOUT_MS: "3000",
      };
      const server = await startMainProcess(env, base);
      server.stdout!.destroy();
      if (closed !== "stdout") server.stderr!.destroy();
      // Requests log lines that now have nowhere to go.
      for (let i = 0; i < 20; i++) expect((await fetch(`${base}/healthz`)).status).toBe(200);

      const started = performance.now();
      server.kill("SIGTERM");
      const exited = once(server, "exit");
      const deadline = new Promise((r) => setTimeout(r, 10_000, "still running"));
      const outcome = await Promise.race([exited, deadline]);
      expect(outcome, "the server ignored SIGTERM").not.toBe("still running");
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(server.signalCode).toBeNull();
    },
    60_000,
  );
});
