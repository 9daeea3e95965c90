import type { MiddlewareHandler } from "hono";
import { WORKSPACE_CONVERSATION_ID } from "../../../contracts/events.js";
import { AppError } from "../../shared/errors.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import type { Core } from "../core.js";
import { chargeWrite } from "./idempotent-write.js";
import { isParticipant, readsWholeLog } from "../visibility.js";

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
        const reader = c.get("principal");
        if (c.req.path === "/v1/ledger/verify" && !readsWholeLog(core, reader)) {
          throw new AppError("FORBIDDEN", "Verifying the whole log is for admins and auditors", {
            reason: "whole_log",
          });
        }
        if (c.req.path === "/v1/ledger/policies" && !readsWholeLog(core, reader)) {
          throw new AppError("FORBIDDEN", "The workspace's policy settings are for admins and auditors", {
            reason: "whole_log",
          });
        }
        if (c.req.path === "/v1/ledger/stream") {
          const res = c.env?.outgoing;
          if (res)
            core.live.open({
              tokenHash: c.get("tokenHash"),
              tenantId: reader.tenantId,
              entityId: reader.entityId,
              res,
            });
        }
        if (c.req.query("tenant_id") === undefined && c.req.path.startsWith("/v1/agents/")) {
          // The trajectory is a Messenger read like the gateway's own: the tenant comes from the
          // token. Office's route still takes it from the query, so hand it the caller's.
          const url = new URL(c.req.url);
          url.searchParams.set("tenant_id", c.get("principal").tenantId);
          c.req.raw = new Request(url, c.req.raw);
        } else if (
          c.req.query("tenant_id") === undefined &&
          !c.req.path.startsWith("/v1/ledger/keys") &&
          c.req.path !== "/v1/ledger/verifier-key"
        ) {
          throw new AppError("VALIDATION_ERROR", "tenant_id is required", { field: "tenant_id" });
        }
        return next();
      }
      const p = c.get("principal");
      const isAdmin = core.me(p).roles.includes("admin");
      // Parsed once: Hono keeps the parsed body, and the route's validator reads that same object
      // (a 100-event append is ≈ 100 KB of JSON, so a second parse and a copy of the bytes count).
      let body: Record<string, unknown> | undefined;
      try {
        body = (await c.req.json()) as Record<string, unknown>;
      } catch {
        body = undefined; // the route answers INVALID_JSON itself
      }
      // Every write is rate limited like the Messenger's: one token per request, one per event appended.
      const events =
        c.req.path === "/v1/ledger/append" && Array.isArray(body?.events) ? (body.events as unknown[]).length : 1;
      await chargeWrite(core, c, events);
      if (body && typeof body === "object") {
        if (body.tenant_id !== undefined && body.tenant_id !== p.tenantId)
          throw new AppError("FORBIDDEN", "tenant_id does not match your token", { field: "tenant_id" });
        if (c.req.path.startsWith("/v1/office/") && body.actor_entity_id !== p.entityId && !isAdmin) {
          throw new AppError("FORBIDDEN", "Only admins may act for someone else through Office", {
            field: "actor_entity_id",
          });
        }
        // Office acts in a conversation: only one the caller belongs to (ids of others answer 404, as everywhere).
        const conversationId = body.conversation_id;
        if (
          c.req.path.startsWith("/v1/office/") &&
          typeof conversationId === "string" &&
          !isAdmin &&
          !isParticipant(core, p.tenantId, conversationId, p.entityId)
        ) {
          throw new AppError("NOT_FOUND", "No such conversation", { conversation_id: conversationId });
        }
        if (c.req.path === "/v1/ledger/append" && Array.isArray(body.events)) {
          for (const raw of body.events as Array<Record<string, unknown> | null>) {
            const actor = (raw?.actor ?? {}) as { entity_id?: unknown; actor_type?: unknown };
            if (raw?.tenant_id !== undefined && raw.tenant_id !== p.tenantId)
              throw new AppError("FORBIDDEN", "An event names another tenant", { field: "events.tenant_id" });
            const payload = (raw?.payload ?? {}) as { deleted?: unknown };
            if (raw?.event_type === "contact.upserted" && payload.deleted === true) {
              throw new AppError(
                "FORBIDDEN",
                "Delete a contact with DELETE /v1/contacts/:id: it erases the contact's addresses in the same act",
                {
                  field: "events.payload.deleted",
                },
              );
            }
            // Like every other write: only into a conversation the caller is in (others answer 404).
            const conv = raw?.conversation_id;
            if (
              !isAdmin &&
              typeof conv === "string" &&
              conv !== WORKSPACE_CONVERSATION_ID &&
              !isParticipant(core, p.tenantId, conv, p.entityId)
            ) {
              throw new AppError("NOT_FOUND", "No such conversation", { conversation_id: conv });
            }
            const self = actor.entity_id === p.entityId && actor.actor_type === "human";
            const asMachine = actor.actor_type === "agent" || actor.actor_type === "system";
            if (!self && !(isAdmin && asMachine)) {
              throw new AppError(
                "FORBIDDEN",
                "You may append only events you are the actor of (admins may also act as agents or the system)",
                { field: "events.actor" },
              );
            }
          }
        }
      }
      return next();
    });
}
