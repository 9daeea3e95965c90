import type { MiddlewareHandler } from "hono";
import { AppError } from "../shared/errors.js";
import { authenticate, type GwEnv } from "./auth/middleware.js";
import type { Core } from "./core.js";

/**
 * Puts the ledger's and Office's own routes behind the gateway's auth. A member reads only
 * their tenant (the query's tenant_id must be theirs) and writes only as themselves; acting as
 * an agent, as the system or through Office for someone else is for admins. The policy pack
 * still judges every event after this.
 */
export function moduleGuard(core: Core): MiddlewareHandler<GwEnv> {
  const auth = authenticate(core.tokens);
  return async (c, next) =>
    auth(c, async () => {
      if (c.req.method === "GET" || c.req.method === "HEAD") {
        if (c.req.query("tenant_id") === undefined && c.req.path.startsWith("/v1/agents/")) {
          // The trajectory is a Messenger read like the gateway's own: the tenant comes from the
          // token. Office's route still takes it from the query, so hand it the caller's.
          const url = new URL(c.req.url);
          url.searchParams.set("tenant_id", c.get("principal").tenantId);
          c.req.raw = new Request(url, c.req.raw);
        } else if (c.req.query("tenant_id") === undefined && !c.req.path.startsWith("/v1/ledger/keys")) {
          throw new AppError("VALIDATION_ERROR", "tenant_id is required", { field: "tenant_id" });
        }
        return next();
      }
      const p = c.get("principal");
      const isAdmin = core.me(p).roles.includes("admin");
      const text = await c.req.text();
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = undefined; // the route answers INVALID_JSON itself
      }
      if (body && typeof body === "object") {
        if (body["tenant_id"] !== undefined && body["tenant_id"] !== p.tenantId) throw new AppError("FORBIDDEN", "tenant_id does not match your token", { field: "tenant_id" });
        if (c.req.path.startsWith("/v1/office/") && body["actor_entity_id"] !== p.entityId && !isAdmin) {
          throw new AppError("FORBIDDEN", "Only admins may act for someone else through Office", { field: "actor_entity_id" });
        }
        if (c.req.path === "/v1/ledger/append" && Array.isArray(body["events"])) {
          for (const raw of body["events"] as Array<Record<string, unknown> | null>) {
            const actor = (raw?.["actor"] ?? {}) as { entity_id?: unknown; actor_type?: unknown };
            if (raw?.["tenant_id"] !== undefined && raw["tenant_id"] !== p.tenantId) throw new AppError("FORBIDDEN", "An event names another tenant", { field: "events.tenant_id" });
            const self = actor.entity_id === p.entityId && actor.actor_type === "human";
            const asMachine = actor.actor_type === "agent" || actor.actor_type === "system";
            if (!self && !(isAdmin && asMachine)) {
              throw new AppError("FORBIDDEN", "You may append only events you are the actor of (admins may also act as agents or the system)", { field: "events.actor" });
            }
          }
        }
      }
      // The body stream is spent; hand the route a fresh one with the same bytes.
      c.req.raw = new Request(c.req.raw, { body: text });
      return next();
    });
}
