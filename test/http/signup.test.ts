import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type ServerOptions } from "../../src/server.js";
import { startTestServer, type TestServer } from "../support/server.js";

/** Who may create a workspace (SIGNUP), and whose address a rate limit counts (TRUSTED_PROXIES). */
let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A server on an empty data dir (no demo workspace). */
async function emptyServer(opts: Partial<ServerOptions> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "logline-signup-"));
  const server = await createServer({ logger: { info() {}, warn() {}, error() {} }, ledgerSync: "normal", ...opts, dataDir, demo: false, port: 0, host: "127.0.0.1" });
  const { url } = await server.listen();
  return { url, server, dataDir, demo: null as never, close: async () => (await server.close(), rmSync(dataDir, { recursive: true, force: true })) };
}

const workspace = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/v1/workspaces`, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": `k-signup-${Math.random().toString(36).slice(2)}-${Date.now()}`, ...headers }, body: JSON.stringify({ name: "Acme Plumbing", owner: { display_name: "Maria" } }) });

describe("SIGNUP", () => {
  it("unset: open on an empty server, invite once the first workspace exists", async () => {
    t = await emptyServer();
    const first = await workspace(t.url);
    expect(first.status).toBe(201);
    const second = await workspace(t.url);
    expect(second.status).toBe(403);
    const body = (await second.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("SIGNUP_CLOSED");
    expect(body.error.message).toMatch(/Ask an admin of your workspace for an invite link/);
  });

  it("invite: no new workspaces, but an invite link still lets a person join", async () => {
    t = await startTestServer({ signup: "invite" });
    expect((await workspace(t.url)).status).toBe(403);
    const dan = t.demo.humans[0]!.token;
    const inv = await fetch(`${t.url}/v1/invites`, { method: "POST", headers: { authorization: `Bearer ${dan}`, "content-type": "application/json", "idempotency-key": "k-inv-1" }, body: JSON.stringify({ display_name: "Bea" }) });
    expect(inv.status).toBe(201);
    const code = ((await inv.json()) as { invite_token: string }).invite_token;
    const join = await fetch(`${t.url}/v1/invites/${code}/accept`, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": "k-join-0123456789abcdef" }, body: JSON.stringify({ display_name: "Bea" }) });
    expect(join.status).toBe(201);
  });

  it("closed: no new workspaces and nobody joins", async () => {
    t = await startTestServer({ signup: "closed" });
    expect((await workspace(t.url)).status).toBe(403);
    const dan = t.demo.humans[0]!.token;
    const inv = await fetch(`${t.url}/v1/invites`, { method: "POST", headers: { authorization: `Bearer ${dan}`, "content-type": "application/json", "idempotency-key": "k-inv-2" }, body: JSON.stringify({ display_name: "Bea" }) });
    const code = ((await inv.json()) as { invite_token: string }).invite_token;
    const join = await fetch(`${t.url}/v1/invites/${code}/accept`, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": "k-join-0123456789abcdeg" }, body: JSON.stringify({ display_name: "Bea" }) });
    expect(join.status).toBe(403);
    expect(((await join.json()) as { error: { code: string } }).error.code).toBe("SIGNUP_CLOSED");
  });
});

describe("TRUSTED_PROXIES", () => {
  const burst = async (url: string, forwardedFor: string[]) => {
    const codes: number[] = [];
    for (const ip of forwardedFor) codes.push((await workspace(url, { "x-forwarded-for": ip })).status);
    return codes;
  };

  it("from an untrusted peer, X-Forwarded-For is ignored: every client shares the peer's limit", async () => {
    t = await emptyServer({ signup: "open", rateLimit: { capacity: 2, refillPerSecond: 0.01 } });
    expect(await burst(t.url, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])).toEqual([201, 201, 429]);
  });

  it("behind a trusted proxy, each client address has its own limit", async () => {
    t = await emptyServer({ signup: "open", trustedProxies: ["loopback"], rateLimit: { capacity: 2, refillPerSecond: 0.01 } });
    expect(await burst(t.url, ["203.0.113.1", "203.0.113.1", "203.0.113.1", "203.0.113.2"])).toEqual([201, 201, 429, 201]);
  });
});
