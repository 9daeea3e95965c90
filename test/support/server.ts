import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type LogLineServer, type ServerOptions } from "../../src/server.js";
import type { DemoInfo } from "../../src/gateway/index.js";

const quiet = { info() {}, warn() {}, error() {} };

export interface TestServer {
  url: string;
  demo: DemoInfo;
  server: LogLineServer;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A real server on 127.0.0.1:0 over a fresh temp data dir, demo-seeded. `close` stops it and
 * removes the data dir (pass `keep: true` to restart on the same dir).
 */
export async function startTestServer(opts: Partial<ServerOptions> & { keep?: boolean } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "logline-"));
  // Sign-up open, so tests can make second workspaces; `signup: undefined` gives the production default.
  const server = await createServer({ demo: true, logger: quiet, ledgerSync: "normal", signup: "open", ...opts, dataDir, port: 0, host: "127.0.0.1" });
  const { url } = await server.listen();
  if (!server.demo) throw new Error("demo was not seeded");
  return {
    url,
    demo: server.demo,
    server,
    dataDir,
    async close() {
      await server.close();
      if (!opts.keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Headers for a bearer-authed JSON write. */
function writeHeaders(token: string, key?: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key ?? `k-${Math.random().toString(36).slice(2)}${Date.now()}` };
}

export async function postJson(url: string, token: string, body: unknown, key?: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, { method: "POST", headers: writeHeaders(token, key), body: JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
}

export async function getJson(url: string, token: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Polls until `fn` returns a truthy value (or throws after `ms`). */
export async function waitFor<T>(fn: () => T | Promise<T>, ms = 5000, what = "condition"): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
