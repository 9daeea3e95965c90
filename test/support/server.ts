import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HostLedgerApi, LedgerApi } from "../../src/ledger/index.js";
import { createServer, type LogLineServer, type ServerOptions } from "../../src/server.js";
import type { DemoInfo } from "../../src/gateway/index.js";
import { type Clock, systemClock } from "../../src/shared/clock.js";
import { statedClock } from "./clock.js";
import { trackServer } from "./in-flight.js";

const quiet = { info() {}, warn() {}, error() {} };

export interface TestServer<L extends HostLedgerApi = LedgerApi> {
  url: string;
  demo: DemoInfo;
  server: LogLineServer<L>;
  dataDir: string;
  /** The clock the server runs on: tests compute what they expect from it, never from `Date`. */
  clock: Clock;
  close(): Promise<void>;
}

/**
 * The clock a test server runs on when the test states none: the stated default instant
 * (test/support/clock.ts), or real time where the browser project asks for it — Chromium's own
 * clock is the real one, and the page's "Today" must agree with the server's.
 */
function defaultTestClock(): Clock {
  return process.env.LOGLINE_TEST_CLOCK === "real" ? systemClock : statedClock();
}

type StartOptions = Partial<Omit<ServerOptions, "databaseUrl">> & { keep?: boolean };

/**
 * A real server on 127.0.0.1:0 over a fresh temp data dir, demo-seeded, on the test clock (pass
 * `clock` to state another instant). `close` stops it and removes the data dir (pass `keep: true`
 * to restart on the same dir).
 */
export async function startTestServer(opts: StartOptions = {}): Promise<TestServer> {
  const s = await start({ demo: true, ...opts });
  if (!s.server.demo) throw new Error("demo was not seeded");
  return { ...s, demo: s.server.demo };
}

/**
 * The same on PostgreSQL (`databaseUrl`, e.g. from newPgDatabase in test/ledger/pg/pg-helpers.ts):
 * the ledger, Idempotency-Keys and Office's inbox in that database. Demo-seeded unless the
 * database already has a workspace (`demo` is then null: pass `demo: false` to say so).
 */
export async function startPgTestServer(
  databaseUrl: string,
  opts: StartOptions = {},
): Promise<Omit<TestServer<HostLedgerApi>, "demo"> & { demo: DemoInfo | null }> {
  const s = await start({ demo: true, ...opts }, databaseUrl);
  return { ...s, demo: s.server.demo };
}

/** The same on an empty database: no workspace yet (onboarding and sign-up start from nothing). */
export async function startEmptyServer(opts: StartOptions = {}): Promise<Omit<TestServer, "demo">> {
  return start({ ...opts, demo: false });
}

async function start(opts: StartOptions): Promise<Omit<TestServer, "demo">>;
async function start(opts: StartOptions, databaseUrl: string): Promise<Omit<TestServer<HostLedgerApi>, "demo">>;
async function start(opts: StartOptions, databaseUrl?: string): Promise<Omit<TestServer<HostLedgerApi>, "demo">> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "logline-"));
  const clock = opts.clock ?? defaultTestClock();
  // Sign-up open, so tests can make second workspaces; `signup: undefined` gives the production default.
  const server = await createServer({
    logger: quiet,
    ledgerSync: "normal",
    signup: "open",
    ...opts,
    ...(databaseUrl ? { databaseUrl } : {}),
    clock,
    dataDir,
    port: 0,
    host: "127.0.0.1",
  });
  const untrack = trackServer(dataDir, server.app);
  const { url } = await server.listen();
  return {
    url,
    server,
    dataDir,
    clock,
    async close() {
      await server.close();
      untrack();
      if (!opts.keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Headers for a bearer-authed JSON write. */
function writeHeaders(token: string, key?: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    "idempotency-key": key ?? `k-${Math.random().toString(36).slice(2)}${Date.now()}`,
  };
}

export async function postJson(
  url: string,
  token: string,
  body: unknown,
  key?: string,
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, { method: "POST", headers: writeHeaders(token, key), body: JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
}

export async function getJson(url: string, token: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Polls until `fn` returns a truthy value (or throws after `ms`, saying `what`, or what it returns then). */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  ms = 5000,
  what: string | (() => string) = "condition",
): Promise<NonNullable<T>> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${typeof what === "function" ? what() : what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Dan (the demo workspace's owner and approver) or Ana (a member), with their tokens. */
export function demoPerson<H extends { display_name: string }>(
  s: { demo: { humans: H[] } | null },
  name: "Dan" | "Ana",
): H {
  const person = s.demo?.humans.find((h) => h.display_name === name);
  if (!person) throw new Error(`no ${name} in the demo workspace`);
  return person;
}
