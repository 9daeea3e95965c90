import type { Logger } from "./logger.js";

interface ShutdownStep {
  name: string;
  run(): void | Promise<void>;
}

export interface ShutdownCoordinator {
  /** Steps run in the order added, each awaited before the next. */
  add(step: ShutdownStep): void;
  isShuttingDown(): boolean;
  /** Runs the steps once; later calls return the same promise. Resolves with the exit code. */
  shutdown(reason: string): Promise<number>;
  /** Wires SIGTERM/SIGINT: first signal drains and exits, a second one exits at once. */
  installSignalHandlers(exit?: (code: number) => void): void;
}

/**
 * Orderly stop for one process: stop accepting, let in-flight work finish, close streams with a
 * reconnect hint, close the database. A deadline bounds the whole thing so a stuck step cannot
 * keep systemd waiting until it resorts to SIGKILL.
 */
export function createShutdown(deps: { logger: Logger; timeoutMs: number }): ShutdownCoordinator {
  const steps: ShutdownStep[] = [];
  let running: Promise<number> | undefined;

  async function runSteps(reason: string): Promise<number> {
    const started = Date.now();
    deps.logger.info({ reason }, "shutting down");
    let code = 0;
    for (const step of steps) {
      const t = Date.now();
      try {
        await step.run();
        deps.logger.debug({ step: step.name, ms: Date.now() - t }, "shutdown step done");
      } catch (err) {
        code = 1;
        deps.logger.error({ step: step.name, err }, "shutdown step failed");
      }
    }
    deps.logger.info({ ms: Date.now() - started }, "stopped");
    return code;
  }

  const coordinator: ShutdownCoordinator = {
    add: (step) => void steps.push(step),
    isShuttingDown: () => running !== undefined,
    shutdown(reason) {
      if (running) return running;
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<number>((resolve) => {
        timer = setTimeout(() => {
          deps.logger.error({ timeout_ms: deps.timeoutMs }, "shutdown deadline passed; exiting with work unfinished");
          resolve(1);
        }, deps.timeoutMs);
        timer.unref();
      });
      running = Promise.race([runSteps(reason), deadline]).finally(() => clearTimeout(timer));
      return running;
    },
    installSignalHandlers(exit = (code) => process.exit(code)) {
      const onSignal = (signal: NodeJS.Signals) => {
        if (running) {
          deps.logger.warn({ signal }, "second signal: exiting now");
          exit(1);
          return;
        }
        void coordinator.shutdown(signal).then(exit);
      };
      process.on("SIGTERM", onSignal);
      process.on("SIGINT", onSignal);
    },
  };
  return coordinator;
}
