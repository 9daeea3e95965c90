import { randomUUID } from "node:crypto";
import type { Config } from "../config.js";
import { assertServerStopped, runningServerPid } from "../ops/data-dir.js";
import { silentLogger } from "../ops/logger.js";
import type { LogLineServer } from "../server.js";

/**
 * Admin writes that must go through the gateway's own code (its token store, its workspace
 * command), never around it. With the server running, workspace creation is a loopback call to
 * its public endpoint; with it stopped, the server is built in-process, used, and closed.
 */

/** Loaded only by the commands that need it, so `verify` or `backup` start fast. */
async function withServer<T>(config: Config, use: (s: LogLineServer) => Promise<T>): Promise<T> {
  const { createServer } = await import("../server.js");
  // demo off: an admin command on an empty data dir must not seed the demo tenant.
  const server = await createServer({ dataDir: config.dataDir, demo: false, logger: silentLogger(), ledgerSync: config.ledgerSync });
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

export const signinUrl = (config: Config, token: string) => `${config.publicUrl ?? localUrl(config)}/signin?token=${encodeURIComponent(token)}`;

function localUrl(config: Config): string {
  const host = config.host === "0.0.0.0" ? "127.0.0.1" : config.host === "::" ? "[::1]" : config.host.includes(":") ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

export async function createWorkspace(config: Config, input: { name: string; owner: string }) {
  const init: RequestInit = {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify({ name: input.name, owner: { display_name: input.owner } }),
  };
  const call = async (res: Response) => {
    const body = (await res.json()) as { tenant_id: string; owner_entity_id: string; token: string; error?: { message: string } };
    if (!res.ok) throw new Error(`workspace create refused (${res.status}): ${body.error?.message ?? "unknown error"}`);
    return { tenant_id: body.tenant_id, owner_entity_id: body.owner_entity_id, signin_url: signinUrl(config, body.token) };
  };
  if (runningServerPid(config.dataDir) !== null) return call(await fetch(`${localUrl(config)}/v1/workspaces`, init));
  return withServer(config, async (s) => call(await s.app.request("/v1/workspaces", init)));
}

/**
 * Needs the server stopped: a running gateway caches resolved tokens in memory, so revoking
 * them from another process would leave the old token working there until a restart.
 */
export async function rotateToken(config: Config, input: { tenant: string; entity: string }) {
  assertServerStopped(config.dataDir, "token rotate");
  return withServer(config, async (s) => {
    if (!s.ledger.facts.entity(input.tenant, input.entity)) throw new Error(`No entity ${input.entity} in tenant ${input.tenant}`);
    const p = { tenantId: input.tenant, entityId: input.entity };
    const revoked = s.gateway.core.tokens.revokeAll(p);
    return { entity_id: input.entity, revoked, signin_url: signinUrl(config, s.gateway.core.tokens.issue(p)) };
  });
}
