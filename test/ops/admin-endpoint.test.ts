import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Hono } from "hono";
import { parseConfig } from "../../src/config.js";
import { readAdminFile } from "../../src/ops/admin-endpoint.js";
import { writePidFile } from "../../src/ops/data-dir.js";
import { bootServer } from "../../src/ops/boot.js";
import { silentLogger } from "../../src/ops/logger.js";
import { createOpsRuntime } from "../../src/ops/runtime.js";
import { createServer } from "../../src/server.js";
import { tempDir } from "../ledger/helpers.js";
import { built } from "../support/built.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const execFileAsync = promisify(execFile);

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function boot() {
  const dir = tempDir("admin-");
  cleanups.push(() => dir.cleanup());
  const config = parseConfig({ DATA_DIR: dir.dir, PORT: "0", LOGLINE_DEMO: "1", LEDGER_SYNC: "normal" });
  const logger = silentLogger();
  const ops = createOpsRuntime({
    logger,
    dataDir: dir.dir,
    planner: () => ({ kind: "rules" }),
    shutdownTimeoutMs: 5000,
  });
  const running = await bootServer({ config, logger, ops });
  cleanups.push(async () => void (await ops.shutdown.shutdown("test")));
  return { dir: dir.dir, url: running.url, server: running.server, ops };
}

describe("admin endpoint (token rotation on a running server)", () => {
  it("publishes admin.json (0600) for this boot, rotates through the gateway's cache, and removes it on shutdown", async () => {
    const { dir, url, server, ops } = await boot();
    const admin = readAdminFile(dir)!;
    expect(admin.url).toBe(url);
    expect(statSync(join(dir, "admin.json")).mode & 0o777).toBe(0o600);
    const dan = server.demo!.humans[0]!;
    const old = { authorization: `Bearer ${dan.token}` };
    expect((await fetch(`${url}/v1/conversations`, { headers: old })).status).toBe(200); // now cached

    const res = await fetch(`${url}/v1/admin/tokens/rotate`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
      body: JSON.stringify({ tenant_id: server.demo!.tenant_id, entity_id: dan.entity_id }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { revoked: number; token: string };
    expect(body.revoked).toBeGreaterThanOrEqual(1);
    expect((await fetch(`${url}/v1/conversations`, { headers: old })).status).toBe(401);
    expect(
      (await fetch(`${url}/v1/conversations`, { headers: { authorization: `Bearer ${body.token}` } })).status,
    ).toBe(200);

    await ops.shutdown.shutdown("test");
    expect(existsSync(join(dir, "admin.json"))).toBe(false);
  });

  it("refuses callers without the secret or behind a proxy, and bad input, with the standard error shape", async () => {
    const { dir, url, server } = await boot();
    const secret = JSON.parse(readFileSync(join(dir, "admin.json"), "utf8")).token as string;
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${url}/v1/admin/tokens/rotate`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", ...headers },
        body,
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { error: { code: string; message: string; details: Record<string, unknown> } },
      }));
    const good = JSON.stringify({ tenant_id: server.demo!.tenant_id, entity_id: server.demo!.humans[0]!.entity_id });

    const noSecret = await post(good, { authorization: "Bearer nope" });
    expect(noSecret.status).toBe(403);
    expect(noSecret.body.error).toMatchObject({ code: "FORBIDDEN", details: {} });
    // Through a reverse proxy every caller is 127.0.0.1: a forwarding header disqualifies it.
    expect((await post(good, { "x-forwarded-for": "203.0.113.9" })).status).toBe(403);
    // A user's own bearer token is not the admin secret.
    expect((await post(good, { authorization: `Bearer ${server.demo!.humans[0]!.token}` })).status).toBe(403);

    const notJson = await post("{nope");
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe("INVALID_JSON");
    const missing = await post(JSON.stringify({ tenant_id: server.demo!.tenant_id }));
    expect(missing.status, JSON.stringify(missing.body)).toBe(400);
    expect(missing.body.error.code).toBe("INVALID_INPUT");
    expect(Object.keys(missing.body.error.details.fields as object)).toEqual(["entity_id"]);
    const extra = await post(JSON.stringify({ tenant_id: "t", entity_id: "e", roles: ["admin"] }));
    expect(extra.status).toBe(400);
    const unknown = await post(JSON.stringify({ tenant_id: server.demo!.tenant_id, entity_id: "ent_nobody" }));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringMatching(/No entity ent_nobody/),
    });
    // Nothing was rotated by any of these: the demo token still works.
    expect(
      (
        await fetch(`${url}/v1/conversations`, {
          headers: { authorization: `Bearer ${server.demo!.humans[0]!.token}` },
        })
      ).status,
    ).toBe(200);
  });

  it("`workspace create` against a running server prints a link to that server, not to this shell's PORT", async () => {
    const { dir, url } = await boot();
    cleanups.push(writePidFile(dir)); // as main.ts does: it is how the CLI knows a server is running
    // Another process, as from a shell; its environment names no port, so its default (3000) is
    // not where the server listens. Async: this process must keep serving while it runs.
    const { stdout } = await execFileAsync(
      process.execPath,
      [built("src/cli/logline.ts"), "workspace", "create", "--name", "Acme Plumbing", "--owner", "Maria"],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: dir },
        timeout: 30_000,
      },
    );
    const link = /(\S+)\/signin\?token=(\S+)/.exec(stdout)!;
    expect(link[1]).toBe(url);
    const token = decodeURIComponent(link[2]!);
    expect((await fetch(`${url}/v1/session`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});

describe("createServer().close()", () => {
  async function withSlowRoute(closeGraceMs: number) {
    const dir = tempDir("close-");
    cleanups.push(() => dir.cleanup());
    const slow = new Hono();
    slow.get("/slow", async (c) => {
      await new Promise((r) => setTimeout(r, 400));
      return c.text("finished");
    });
    slow.get("/hang", () => new Promise<Response>(() => {}));
    const server = await createServer({
      dataDir: dir.dir,
      demo: false,
      logger: silentLogger(),
      ledgerSync: "normal",
      port: 0,
      routes: [slow],
      closeGraceMs,
    });
    const { url } = await server.listen();
    return { server, url };
  }

  it("lets a request in flight finish, then stops", async () => {
    const { server, url } = await withSlowRoute(5000);
    const inFlight = fetch(`${url}/slow`).then(async (r) => ({ status: r.status, text: await r.text() }));
    await new Promise((r) => setTimeout(r, 100));
    const t = Date.now();
    await server.close();
    expect(await inFlight).toEqual({ status: 200, text: "finished" });
    expect(Date.now() - t).toBeLessThan(2000); // closed once idle, not at the grace deadline
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it("cuts a request still running at the end of the grace period", async () => {
    const { server, url } = await withSlowRoute(300);
    const hung = fetch(`${url}/hang`).then(
      () => "answered",
      () => "cut",
    );
    await new Promise((r) => setTimeout(r, 100));
    const t = Date.now();
    await server.close();
    expect(Date.now() - t).toBeGreaterThanOrEqual(250);
    expect(await hung).toBe("cut");
  });
});
