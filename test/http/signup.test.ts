import { afterEach, describe, expect, it } from "vitest";
import type { ServerOptions } from "../../src/server.js";
import { startEmptyServer, startTestServer, type TestServer } from "../support/server.js";

/** Who may create a workspace (SIGNUP), and whose address a rate limit counts (TRUSTED_PROXIES). */
let t: Omit<TestServer, "demo"> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A server on an empty data dir (no demo workspace); sign-up as the test or production default says. */
const emptyServer = (opts: Partial<ServerOptions> = {}) => startEmptyServer({ signup: undefined, ...opts });

const workspace = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/v1/workspaces`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "idempotency-key": `k-signup-${Math.random().toString(36).slice(2)}-${Date.now()}`,
      ...headers,
    },
    body: JSON.stringify({ name: "Acme Plumbing", owner: { display_name: "Maria" } }),
  });

type ErrorBody = { error: { code: string; message: string; details: Record<string, unknown> } };

/** An admin's invite on the demo workspace, accepted by an anonymous newcomer. */
async function joinByInvite(t: TestServer): Promise<number> {
  const dan = t.demo.humans[0]!.token;
  const inv = await fetch(`${t.url}/v1/invites`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${dan}`,
      "content-type": "application/json",
      "idempotency-key": `k-inv-${Date.now()}`,
    },
    body: JSON.stringify({ display_name: "Bea" }),
  });
  expect(inv.status).toBe(201);
  const code = ((await inv.json()) as { invite_token: string }).invite_token;
  const join = await fetch(`${t.url}/v1/invites/${code}/accept`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "idempotency-key": `k-join-${Math.random().toString(36).slice(2)}-${Date.now()}`,
    },
    body: JSON.stringify({ display_name: "Bea" }),
  });
  return join.status;
}

describe("SIGNUP", () => {
  it("open: anyone may create a workspace, even when one exists", async () => {
    t = await startTestServer({ signup: "open" });
    expect((await workspace(t.url)).status).toBe(201);
  });

  it("unset: open on an empty server, invite once the first workspace exists", async () => {
    t = await emptyServer();
    const key = "k-first-workspace-0123456789";
    const first = await workspace(t.url, { "idempotency-key": key });
    expect(first.status).toBe(201);
    const second = await workspace(t.url);
    expect(second.status).toBe(403);
    const body = (await second.json()) as ErrorBody;
    expect(body.error).toMatchObject({ code: "SIGNUP_CLOSED", details: { signup: "invite" } });
    expect(body.error.message).toMatch(/ask one of its admins for an invite link/);
    // The first creation's retry (same key) still gets its stored answer, not the refusal.
    const retry = await workspace(t.url, { "idempotency-key": key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
  });

  it("invite: no new workspaces, but an invite link still lets a person join", async () => {
    const demo = await startTestServer({ signup: "invite" });
    t = demo;
    const refused = await workspace(t.url);
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as ErrorBody;
    expect(body.error.code).toBe("SIGNUP_CLOSED");
    expect(body.error.message).toBe(
      "New workspaces on this server are by invitation only. To join your team's workspace, ask one of its admins for an invite link.",
    );
    expect(await joinByInvite(demo)).toBe(201);
  });

  it("closed: no new workspaces, said as closed; invite links still work", async () => {
    const demo = await startTestServer({ signup: "closed" });
    t = demo;
    const refused = await workspace(t.url);
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as ErrorBody;
    expect(body.error).toMatchObject({ code: "SIGNUP_CLOSED", details: { signup: "closed" } });
    expect(body.error.message).toBe(
      "Sign-up is closed on this server: it takes no new workspaces. To join your team's workspace, ask one of its admins for an invite link.",
    );
    expect(await joinByInvite(demo)).toBe(201);
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

  it("a trust list that does not name the peer believes no header either", async () => {
    t = await emptyServer({
      signup: "open",
      trustedProxies: ["10.0.0.0/8", "192.0.2.7"],
      rateLimit: { capacity: 2, refillPerSecond: 0.01 },
    });
    expect(await burst(t.url, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])).toEqual([201, 201, 429]);
  });

  it("behind a trusted proxy, each client address has its own limit", async () => {
    t = await emptyServer({
      signup: "open",
      trustedProxies: ["loopback"],
      rateLimit: { capacity: 2, refillPerSecond: 0.01 },
    });
    expect(await burst(t.url, ["203.0.113.1", "203.0.113.1", "203.0.113.1", "203.0.113.2"])).toEqual([
      201, 201, 429, 201,
    ]);
  });
});
