import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { execFile } from "node:child_process";
import { tempDir } from "../ledger/helpers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const env = (dataDir: string, extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  DATA_DIR: dataDir,
  ...extra,
});

/**
 * `npm start` as a person runs it, in its own process group: a terminal's Ctrl-C and systemd's
 * stop both signal the whole group, so the test does the same.
 */
async function npmStart(
  dataDir: string,
): Promise<{ child: ChildProcess; logs: () => string; url: string; signin: string }> {
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    env: env(dataDir, { PORT: "0", LOG_LEVEL: "debug" }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let logs = "";
  child.stdout!.on("data", (d) => (logs += d));
  child.stderr!.on("data", (d) => (logs += d));
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const listening = /LogLine listening on (http:\/\/\S+?)"/.exec(logs);
    const signin = /sign in as Dan → (http:\/\/\S+?)"/.exec(logs);
    if (listening && signin) return { child, logs: () => logs, url: listening[1]!, signin: signin[1]! };
    if (child.exitCode !== null) throw new Error(`npm start exited early (${child.exitCode}):\n${logs}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${logs}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function cli(script: string[], dataDir: string): Promise<{ code: number; out: string; err: string }> {
  return run("npm", ["run", "--silent", ...script], { cwd: root, env: env(dataDir), timeout: 30_000 }).then(
    (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
  );
}

const signedIn = async (url: string, token: string) =>
  (await fetch(`${url}/v1/conversations`, { headers: { authorization: `Bearer ${token}` } })).status;

describe("npm start from a fresh checkout", () => {
  it("creates the data dir, seeds the demo, prints the sign-in link, rotates a token live, and stops cleanly on SIGTERM", async () => {
    const tmp = tempDir("npm-start-");
    cleanups.push(() => tmp.cleanup());
    const dataDir = join(tmp.dir, "nested", "data"); // does not exist yet
    const { child, logs, url, signin } = await npmStart(dataDir);

    expect(statSync(dataDir).isDirectory()).toBe(true);
    const demo = JSON.parse(readFileSync(join(dataDir, "demo.json"), "utf8")) as {
      tenant_id: string;
      humans: Array<{ entity_id: string; token: string }>;
    };
    const token = decodeURIComponent(/token=([^&]+)/.exec(signin)![1]!);
    expect(token).toBe(demo.humans[0]!.token);
    // The printed link signs in: it redirects into the app with a session cookie.
    const page = await fetch(signin, { redirect: "manual" });
    expect(page.status).toBeLessThan(400);
    expect(await signedIn(url, token)).toBe(200);

    // Rotation while the server runs: the CLI asks the server, whose token cache forgets the old one.
    const rotated = await cli(
      ["logline", "--", "token", "rotate", "--tenant", demo.tenant_id, "--entity", demo.humans[0]!.entity_id],
      dataDir,
    );
    expect(rotated.code, rotated.err).toBe(0);
    expect(rotated.out).toMatch(/revoked \d+ token\(s\)/);
    const fresh = decodeURIComponent(/signin\?token=(\S+)/.exec(rotated.out)![1]!);
    expect(await signedIn(url, token)).toBe(401);
    expect(await signedIn(url, fresh)).toBe(200);
    const unknown = await cli(
      ["logline", "--", "token", "rotate", "--tenant", demo.tenant_id, "--entity", "ent_nobody"],
      dataDir,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/No entity ent_nobody/);

    // Both verify commands agree on the live data dir (read-only beside the server).
    const a = await cli(["verify"], dataDir);
    const b = await cli(["logline", "--", "verify"], dataDir);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toMatch(
      new RegExp(`^ok +${demo.tenant_id} +\\d+ events, \\d+ checkpoints, head seq:\\d+ blake3:`, "m"),
    );
    expect(b.out).toBe(a.out);
    expect(b.code).toBe(a.code);

    // Stop as systemd does: SIGTERM to the group. node (no relay in between) runs its shutdown.
    const exited = once(child, "exit");
    process.kill(-child.pid!, "SIGTERM");
    await exited;
    // npm exits with the signal; the server is its grandchild and finishes on its own.
    const deadline = Date.now() + 10_000;
    while (!/"msg":"stopped"/.test(logs()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(logs()).toMatch(/"msg":"stopped"/);
    expect(logs()).not.toMatch(/shutdown step failed|deadline passed/);
    expect(existsSync(join(dataDir, "logline.pid"))).toBe(false);
    expect(existsSync(join(dataDir, "admin.json"))).toBe(false);

    // The stopped data dir verifies too: the shutdown left a consistent database.
    const c = await cli(["verify"], dataDir);
    expect(c.code, c.err).toBe(0);
    expect(c.out).toMatch(new RegExp(`^ok +${demo.tenant_id} `, "m"));
  }, 90_000);
});
