import { z } from "@hono/zod-openapi";
import {
  ZAdminWriteResult,
  ZAgentAdminList,
  ZMemberList,
  ZSetAccessRequest,
  ZSignInLinkResult,
  ZTokenList,
  ZUpdateAgentRequest,
} from "../../../contracts/admin.js";
import { ADMIN_READ_ERRORS, createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/**
 * The Admin screens (owners and admins): members and their access, agents, sign-in tokens.
 * Writes by anyone else reach the policy pack, which refuses them (403) and records the attempt.
 */
export function createAdminRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, emptyWrite, read } = signedInRoutes(core.tokens);
  const tags = ["Administration"];
  const params = z.object({ id: z.string().min(1).max(128) });

  route(
    app,
    read({
      path: "/v1/admin/members",
      summary: "People and their access (owners and admins)",
      tags,
      schema: ZMemberList,
      described: "Every person, deactivated ones too",
      errors: ADMIN_READ_ERRORS,
    }),
    (c) => c.json(api.listMembers(c.get("principal"))),
  );
  route(
    app,
    write({
      method: "put",
      path: "/v1/admin/members/{id}/access",
      summary: "Make someone an owner, an admin or a member",
      tags,
      body: ZSetAccessRequest,
      ok: { 200: json(ZAdminWriteResult, "Recorded as entity.role_changed") },
      params,
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.setAccess(c.get("principal"), c.req.valid("param").id, body, idem),
      );
    },
  );
  for (const [verb, summary, schema] of [
    ["deactivate", "Deactivate a person: every token of theirs stops working now", ZAdminWriteResult],
    ["reactivate", "Reactivate a person, with a new sign-in link for them", ZSignInLinkResult],
    ["rotate-tokens", "End all of a person's sign-ins and make one new sign-in link", ZSignInLinkResult],
  ] as const) {
    route(
      app,
      emptyWrite({
        method: "post",
        path: `/v1/admin/members/{id}/${verb}`,
        summary,
        tags,
        ok: { 200: json(schema, "Done, and recorded in the ledger") },
        params,
      }),
      (c) => {
        const p = c.get("principal");
        const id = c.req.valid("param").id;
        return idempotentWrite(core, c, "", (idem) =>
          verb === "deactivate"
            ? api.deactivateMember(p, id, idem)
            : verb === "reactivate"
              ? api.reactivateMember(p, id, idem)
              : api.rotateTokens(p, id, idem),
        );
      },
    );
  }

  route(
    app,
    read({
      path: "/v1/admin/agents",
      summary: "Agents, their tools and whether paused (owners and admins)",
      tags,
      schema: ZAgentAdminList,
      described: "Every agent not removed",
      errors: ADMIN_READ_ERRORS,
    }),
    (c) => c.json(api.listAgents(c.get("principal"))),
  );
  route(
    app,
    write({
      method: "put",
      path: "/v1/admin/agents/{id}",
      summary: "Edit an agent: name, role, capabilities, allowed tools",
      tags,
      body: ZUpdateAgentRequest,
      ok: { 200: json(ZAdminWriteResult, "Recorded as entity.registered (and agent.tool_mode_set)") },
      params,
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.updateAgent(c.get("principal"), c.req.valid("param").id, body, idem),
      );
    },
  );
  for (const verb of ["pause", "resume"] as const) {
    route(
      app,
      emptyWrite({
        method: "post",
        path: `/v1/admin/agents/{id}/${verb}`,
        summary: verb === "pause" ? "Pause an agent: it proposes and runs nothing" : "Resume a paused agent",
        tags,
        ok: { 200: json(ZAdminWriteResult, `Recorded as agent.${verb}d`) },
        params,
      }),
      (c) =>
        idempotentWrite(core, c, "", (idem) =>
          api.setAgentPaused(c.get("principal"), c.req.valid("param").id, verb === "pause", idem),
        ),
    );
  }
  route(
    app,
    emptyWrite({
      method: "delete",
      path: "/v1/admin/agents/{id}",
      summary: "Remove an agent from the workspace (its history stays)",
      tags,
      ok: { 200: json(ZAdminWriteResult, "Recorded as entity.deactivated (removed)") },
      params,
    }),
    (c) => idempotentWrite(core, c, "", (idem) => api.removeAgent(c.get("principal"), c.req.valid("param").id, idem)),
  );

  route(
    app,
    read({
      path: "/v1/admin/tokens",
      summary: "Sign-in tokens: whose, created, last used (owners and admins)",
      tags,
      schema: ZTokenList,
      described: "Live tokens, newest first",
      errors: ADMIN_READ_ERRORS,
    }),
    async (c) => c.json(await api.listTokens(c.get("principal"))),
  );
  route(
    app,
    emptyWrite({
      method: "delete",
      path: "/v1/admin/tokens/{id}",
      summary: "Revoke one token: it stops working now",
      tags,
      ok: { 200: json(ZAdminWriteResult, "Recorded as entity.tokens_revoked") },
      params,
    }),
    (c) => idempotentWrite(core, c, "", (idem) => api.revokeToken(c.get("principal"), c.req.valid("param").id, idem)),
  );
  return app;
}
