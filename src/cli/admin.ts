import { ZCreateWorkspaceRequest } from "../../contracts/gateway.js";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import type { Config } from "../config.js";
import { readAdminFile } from "../ops/admin-endpoint.js";
import { assertServerStopped, databasePath, runningServerPid } from "../ops/data-dir.js";
import { rotateSigningKey } from "../ledger/index.js";
import { migrateOffice, rotateVaultKey } from "../office/index.js";
import { openDatabase } from "../shared/db.js";
import { rotateEntityTokens } from "../ops/token-rotation.js";
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
  const server = await createServer({
    dataDir: config.dataDir,
    demo: false,
    logger: silentLogger(),
    ledgerSync: config.ledgerSync,
  });
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

export const signinUrl = (config: Config, token: string, listening?: string) =>
  `${config.publicUrl ?? listening ?? localUrl(config)}/signin?token=${encodeURIComponent(token)}`;

function localUrl(config: Config): string {
  const host =
    config.host === "0.0.0.0"
      ? "127.0.0.1"
      : config.host === "::"
        ? "[::1]"
        : config.host.includes(":")
          ? `[${config.host}]`
          : config.host;
  return `http://${host}:${config.port}`;
}

export async function createWorkspace(config: Config, input: { name: string; owner: string }) {
  const init: RequestInit = {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify({ name: input.name, owner: { display_name: input.owner } }),
  };
  const call = async (res: Response, listening?: string) => {
    const body = (await res.json()) as {
      tenant_id: string;
      owner_entity_id: string;
      token: string;
      error?: { message: string };
    };
    if (!res.ok) throw new Error(`workspace create refused (${res.status}): ${body.error?.message ?? "unknown error"}`);
    return {
      tenant_id: body.tenant_id,
      owner_entity_id: body.owner_entity_id,
      signin_url: signinUrl(config, body.token, listening),
    };
  };
  // The running server's own address when it published one (PORT=0, or HOST differs from here);
  // the link must point there too, not at this shell's PORT.
  // The machine's administrator creates workspaces whatever SIGNUP says: through the running
  // server's admin endpoint (loopback, the secret from admin.json), or an in-process server.
  const pid = runningServerPid(config.dataDir);
  if (pid !== null) {
    const admin = readAdminFile(config.dataDir);
    if (!admin)
      throw new Error(
        `LogLine (pid ${pid}) is running on ${config.dataDir} but published no admin.json; restart it, or stop it and retry`,
      );
    const headers = { ...(init.headers as Record<string, string>), authorization: `Bearer ${admin.token}` };
    return call(await fetch(`${admin.url}/v1/admin/workspaces`, { ...init, headers }), admin.url);
  }
  return withServer(config, async (s) => {
    const body = ZCreateWorkspaceRequest.safeParse({ name: input.name, owner: { display_name: input.owner } });
    if (!body.success)
      throw new Error(
        `workspace create refused: ${body.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
      );
    const made = await s.gateway.createWorkspaceAsOperator(body.data.name, body.data.owner.display_name);
    return {
      tenant_id: made.tenant_id,
      owner_entity_id: made.owner_entity_id,
      signin_url: signinUrl(config, made.token),
    };
  });
}

/**
 * With the server running, the server does it (POST /v1/admin/tokens/rotate on loopback with the
 * secret from admin.json): it caches resolved tokens in memory, so a revocation written from
 * another process would leave the old token working there until a restart. With it stopped,
 * an in-process server does it.
 */
export async function rotateToken(config: Config, input: { tenant: string; entity: string }) {
  const pid = runningServerPid(config.dataDir);
  if (pid !== null) {
    const admin = readAdminFile(config.dataDir);
    if (!admin)
      throw new Error(
        `LogLine (pid ${pid}) is running on ${config.dataDir} but published no admin.json; restart it, or stop it and retry`,
      );
    const res = await fetch(`${admin.url}/v1/admin/tokens/rotate`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({ tenant_id: input.tenant, entity_id: input.entity }),
    });
    const body = (await res.json().catch(() => ({}))) as {
      revoked?: number;
      token?: string;
      error?: { message?: string };
    };
    if (!res.ok || !body.token)
      throw new Error(body.error?.message ?? `token rotate refused by the server (${res.status})`);
    return {
      entity_id: input.entity,
      revoked: body.revoked ?? 0,
      signin_url: signinUrl(config, body.token, admin.url),
    };
  }
  return withServer(config, async (s) => {
    const r = await rotateEntityTokens(s, input.tenant, input.entity);
    if (!r) throw new Error(`No entity ${input.entity} in tenant ${input.tenant}`);
    return { entity_id: input.entity, revoked: r.revoked, signin_url: signinUrl(config, r.token) };
  });
}

/**
 * Erases one vault entry and every Office-held copy of its value (invite files, outbox rows).
 * Offline only, like restore: the files are rewritten outside the running server's sight.
 */
export async function eraseVaultEntry(config: Config, input: { tenant: string; ref: string }): Promise<boolean> {
  assertServerStopped(config.dataDir, "vault erase");
  return withServer(config, async (s) => s.office.vault.erase(input.tenant, input.ref));
}

/**
 * `keys rotate-signing` / `keys rotate-vault`, with the server stopped: a running server holds
 * its keys in memory and would go on signing (or sealing) with the old one. See
 * rotateSigningKey and rotateVaultKey for how each stays safe if it stops half-way.
 */
export function rotateKeys(config: Config, which: "signing" | "vault"): string {
  assertServerStopped(config.dataDir, `keys rotate-${which}`);
  const path = databasePath(config.dataDir);
  if (!existsSync(path)) throw new Error(`No database at ${path}: there is nothing to rotate yet.`);
  const db = openDatabase({ path, sync: "full" });
  try {
    if (which === "signing") {
      const r = rotateSigningKey({ dataDir: config.dataDir, db, now: new Date().toISOString() });
      return `signing key rotated: ${r.retired} retired (its checkpoints still verify), ${r.current} signs from now on; ${r.tenants} tenant(s) re-checkpointed`;
    }
    migrateOffice(db);
    const r = rotateVaultKey({ dataDir: config.dataDir, db });
    return `vault key rotated: ${r.entries} entr${r.entries === 1 ? "y" : "ies"} and ${r.waiting} waiting request(s) re-encrypted`;
  } finally {
    db.close();
  }
}
