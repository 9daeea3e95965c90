import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";
import { built } from "./built.js";

/** The repository root, for tests that run the real entry points. */
export const root = fileURLToPath(new URL("../..", import.meta.url));

const cleanups: Array<() => void | Promise<void>> = [];

/**
 * Runs `fn` after the current test, whatever its outcome (last registered, first run). Hooked to
 * the test itself, not at import: the files of one lane share this module (test/vitest.config.ts),
 * so a hook added when it loads would belong to the first file that imported it alone.
 */
export function afterThisTest(fn: () => void | Promise<void>): void {
  if (cleanups.length === 0)
    onTestFinished(async () => {
      while (cleanups.length) await cleanups.pop()!();
    });
  cleanups.push(fn);
}

/** A loopback port free at the time of asking. */
export async function freePort(): Promise<number> {
  const s = createNetServer().listen(0, "127.0.0.1");
  await once(s, "listening");
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Only the variables named: a child never inherits a test's settings by accident. */
const childEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  ...extra,
});

export type MainProcess = ChildProcess & { logs: () => string };

/**
 * The real entry point in a process of its own (its transpiled twin, see ./built.ts), run by node
 * itself as the systemd unit does, with no relay process in between (the `tsx` CLI relays
 * signals and SIGKILLs a child that has not acknowledged one within ~60 ms, which a busy server
 * may not). Resolves once `/readyz` at `base` says ready (within `bootMs`, default 30 s); the
 * process is killed after the test if it is still running.
 */
export async function startMainProcess(
  env: Record<string, string>,
  base: string,
  opts: { bootMs?: number } = {},
): Promise<MainProcess> {
  const child = spawn(process.execPath, [built("src/main.ts")], {
    cwd: root,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let logs = "";
  child.stdout!.on("data", (d) => (logs += d));
  child.stderr!.on("data", (d) => (logs += d));
  afterThisTest(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  const deadline = performance.now() + (opts.bootMs ?? 30_000);
  let last = "no answer";
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${logs}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.status === 200) break;
      last = `${res.status} ${await res.text()}`;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`server not ready (last /readyz: ${last}):\n${logs}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Object.assign(child, { logs: () => logs });
}

/**
 * LogLine on the PostgreSQL database at `databaseUrl`, in a process of its own on a free loopback
 * port with `dir` as its data dir: `demo` seeds the demo workspace, `env` adds settings.
 */
export async function startPgProcess(
  databaseUrl: string,
  dir: string,
  opts: { demo: boolean; env?: Record<string, string>; bootMs?: number },
): Promise<{ base: string; dir: string; child: MainProcess }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await startMainProcess(
    {
      DATA_DIR: dir,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      LOGLINE_DEMO: opts.demo ? "1" : "0",
      LOG_LEVEL: "warn",
      ...opts.env,
    },
    base,
    opts.bootMs === undefined ? {} : { bootMs: opts.bootMs },
  );
  return { base, dir, child };
}
