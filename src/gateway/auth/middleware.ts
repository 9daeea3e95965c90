import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError } from "../../shared/errors.js";
import { hashSecret, type Principal, type TokenStore } from "./token-store.js";

export const SESSION_COOKIE = "ll_session";
const CSRF_HEADER = "x-logline-csrf";

export type GwEnv = {
  Variables: { principal: Principal; authVia: "bearer" | "cookie"; tokenHash: string };
  Bindings: { incoming?: IncomingMessage; outgoing?: ServerResponse };
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function bearerOf(c: Context): string | undefined {
  const h = c.req.header("authorization");
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  if (!m) throw new AppError("UNAUTHORIZED", "Authorization must be `Bearer <token>`");
  return m[1];
}

/**
 * Cookie-authed writes need proof they come from our own pages. We require a custom header:
 * a cross-site <form> cannot send one, and a cross-site fetch with one needs a CORS preflight
 * this server never grants. An Origin header, when present, must also be our own origin.
 */
function checkCsrf(c: Context): void {
  if (!c.req.header(CSRF_HEADER)) {
    throw new AppError("FORBIDDEN", "Cookie-authenticated writes must send the X-LogLine-CSRF header", {
      reason: "csrf",
    });
  }
  const origin = c.req.header("origin");
  if (origin && origin !== "null") {
    const host = c.req.header("host");
    let ok = false;
    try {
      ok = new URL(origin).host === host;
    } catch {
      ok = false;
    }
    if (!ok) throw new AppError("FORBIDDEN", "Cross-origin write refused", { reason: "csrf" });
  }
  if (origin === "null") throw new AppError("FORBIDDEN", "Cross-origin write refused", { reason: "csrf" });
}

/**
 * Resolves `Authorization: Bearer` or the session cookie to one entity in one tenant. A query
 * `tenant_id`/`actor_entity_id` that names someone else is FORBIDDEN (the token decides who
 * acts, never the request).
 */
export function authenticate(tokens: TokenStore): MiddlewareHandler<GwEnv> {
  return async (c, next) => {
    const bearer = bearerOf(c);
    const token = bearer ?? getCookie(c, SESSION_COOKIE);
    if (!token) throw new AppError("UNAUTHORIZED", "Sign in first: send a Bearer token or the session cookie");
    const p = await tokens.resolve(token);
    if (!p) throw new AppError("UNAUTHORIZED", "This token is unknown or was revoked");
    const via = bearer ? "bearer" : "cookie";
    if (via === "cookie" && !SAFE_METHODS.has(c.req.method)) checkCsrf(c);
    checkIdentity(p, { tenant_id: c.req.query("tenant_id"), actor_entity_id: c.req.query("actor_entity_id") });
    c.set("principal", p);
    const tokenHash = hashSecret(token);
    tokens.touch(tokenHash);
    c.set("tokenHash", tokenHash);
    c.set("authVia", via);
    await next();
  };
}

/** Body or query fields that name the actor must name the token's own tenant and entity. */
export function checkIdentity(
  p: Principal,
  fields: { tenant_id?: string | undefined; actor_entity_id?: string | undefined },
): void {
  if (fields.tenant_id !== undefined && fields.tenant_id !== p.tenantId)
    throw new AppError("FORBIDDEN", "tenant_id does not match your token", { field: "tenant_id" });
  if (fields.actor_entity_id !== undefined && fields.actor_entity_id !== p.entityId) {
    throw new AppError("FORBIDDEN", "actor_entity_id does not match your token", { field: "actor_entity_id" });
  }
}
