import { ZCreateWorkspaceRequest, ZCreateWorkspaceResponse } from "../../contracts/gateway.js";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { createRouter, json, jsonBody, route } from "../shared/openapi.js";
import { ADMIN_FILE } from "./data-dir.js";
import { hasBearer, isLocalCaller } from "./health.js";

/**
 * Admin commands a running server performs for the CLI on the same machine. Some state lives
 * only in the server's memory (the gateway caches resolved tokens), so a change made from
 * another process would not be seen until a restart; the CLI asks the server instead.
 *
 * Two locks: the caller must be local (no proxy in between, see isLocalCaller) and present the
 * per-boot secret from DATA_DIR/admin.json (mode 0600). Whoever can read that file can already
 * read the database and the keys, so the endpoint grants nothing new.
 */

export interface AdminActions {
  /** Revokes every token of the entity and issues one fresh token; null when there is no such entity. */
  rotateToken(tenantId: string, entityId: string): Promise<{ revoked: number; token: string } | null>;
  /** A new workspace for the machine's administrator, whatever SIGNUP says. */
  createWorkspace(name: string, owner: string): Promise<{ tenant_id: string; owner_entity_id: string; token: string }>;
}

export interface AdminFile {
  url: string;
  token: string;
  pid: number;
}

const ZRotate = z.object({ tenant_id: z.string().min(1).max(200), entity_id: z.string().min(1).max(200) }).strict();
const ZRotated = z.object({ entity_id: z.string(), revoked: z.number().int(), token: z.string() });

const fail = (
  c: Context,
  status: 400 | 403 | 404 | 503,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
) => c.json({ error: { code, message, details } }, status);

export function createAdminEndpoint(): {
  routes: OpenAPIHono;
  /** The server's actions, set once it is built (routes answer 503 before). */
  bind(actions: AdminActions): void;
  /** Writes admin.json for this boot; returns its remover. */
  publish(dataDir: string, url: string): () => void;
} {
  const secret = randomBytes(32).toString("base64url");
  let actions: AdminActions | undefined;
  const routes = createRouter();
  // Checked before the body is read: nobody else gets as far as a parse error.
  const gate: MiddlewareHandler = async (c, next) => {
    if (!isLocalCaller(c) || !hasBearer(c, secret))
      return fail(
        c,
        403,
        "FORBIDDEN",
        "Admin commands are served to local callers with the admin secret from DATA_DIR/admin.json.",
      );
    if (!actions) return fail(c, 503, "SERVICE_UNAVAILABLE", "The server is still starting.");
    await next();
  };
  const invalid = (message: (issues: z.core.$ZodIssue[]) => string) => (issues: z.core.$ZodIssue[], c: Context) => {
    const fields: Record<string, string> = {};
    for (const i of issues) fields[String(i.path[0] ?? "body")] ??= i.message;
    return fail(c, 400, "INVALID_INPUT", message(issues), { fields });
  };
  const common = { tags: ["Operations"], middleware: gate, security: [{ admin: [] }] };
  const refusals = {
    403: { description: "Not a local caller with the admin secret" },
    400: { description: "Invalid input (INVALID_INPUT naming the fields)" },
    503: { description: "Still starting" },
  };

  const rotate = createRoute({
    ...common,
    method: "post",
    path: "/v1/admin/tokens/rotate",
    summary: "Rotate a person's tokens (this machine, with the secret in DATA_DIR/admin.json)",
    request: { body: jsonBody(ZRotate) },
    responses: {
      200: json(ZRotated, "The new token; the old ones are revoked"),
      404: { description: "No such entity" },
      ...refusals,
    },
  });
  route(
    routes,
    rotate,
    async (c) => {
      const { tenant_id, entity_id } = c.req.valid("json");
      const r = await actions?.rotateToken(tenant_id, entity_id);
      if (!r) return fail(c, 404, "NOT_FOUND", `No entity ${entity_id} in tenant ${tenant_id}`);
      c.header("cache-control", "no-store");
      return c.json({ entity_id, revoked: r.revoked, token: r.token });
    },
    invalid(() => "tenant_id and entity_id are required."),
  );

  const workspaces = createRoute({
    ...common,
    method: "post",
    path: "/v1/admin/workspaces",
    summary: "Create a workspace whatever SIGNUP says (this machine, with the secret in DATA_DIR/admin.json)",
    request: { body: jsonBody(ZCreateWorkspaceRequest) },
    responses: { 201: json(ZCreateWorkspaceResponse, "The workspace and its owner's token"), ...refusals },
  });
  route(
    routes,
    workspaces,
    async (c) => {
      const body = c.req.valid("json");
      c.header("cache-control", "no-store");
      if (!actions) return fail(c, 503, "SERVICE_UNAVAILABLE", "The server is still starting.");
      return c.json(await actions.createWorkspace(body.name, body.owner.display_name), 201);
    },
    invalid((issues) => `Invalid workspace: ${issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`),
  );

  return {
    routes,
    bind(a) {
      actions = a;
    },
    publish(dataDir, url) {
      const file = join(dataDir, ADMIN_FILE);
      const content: AdminFile = { url, token: secret, pid: process.pid };
      writeFileSync(file, `${JSON.stringify(content)}\n`, { mode: 0o600 });
      return () => {
        try {
          if ((JSON.parse(readFileSync(file, "utf8")) as AdminFile).pid === process.pid) rmSync(file);
        } catch {
          // Already gone.
        }
      };
    },
  };
}

/** admin.json of the server running on `dataDir`, or null. */
export function readAdminFile(dataDir: string): AdminFile | null {
  try {
    const a = JSON.parse(readFileSync(join(dataDir, ADMIN_FILE), "utf8")) as AdminFile;
    return typeof a.url === "string" && typeof a.token === "string" ? a : null;
  } catch {
    return null;
  }
}
