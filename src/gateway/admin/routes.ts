import { createRoute, z } from "@hono/zod-openapi";
import {
  ZAdminWriteResult,
  ZAgentAdminList,
  ZMemberList,
  ZSetAccessRequest,
  ZSignInLinkResult,
  ZTokenList,
  ZUpdateAgentRequest,
} from "../../../contracts/admin.js";
import {
  createRouter,
  errors,
  IDEMPOTENCY_HEADER,
  json,
  jsonBody,
  route,
  SIGNED_IN,
  WRITE_ERRORS,
} from "../../shared/openapi.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";

/**
 * The Admin screens (owners and admins): members and their access, agents, sign-in tokens.
 * Writes by anyone else reach the policy pack, which refuses them (403) and records the attempt.
 */
export function createAdminRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = { tags: ["Administration"], security: SIGNED_IN, middleware: authenticate(core.tokens) };
  const params = z.object({ id: z.string().min(1).max(128) });
  const write = { ...common, parameters: [IDEMPOTENCY_HEADER] };

  route(
    app,
    createRoute({
      ...common,
      method: "get",
      path: "/v1/admin/members",
      summary: "People and their access (owners and admins)",
      responses: { 200: json(ZMemberList, "Every person, deactivated ones too"), ...errors(401, 403) },
    }),
    (c) => c.json(api.listMembers(c.get("principal"))),
  );
  route(
    app,
    createRoute({
      ...write,
      method: "put",
      path: "/v1/admin/members/{id}/access",
      summary: "Make someone an owner, an admin or a member",
      request: { params, body: jsonBody(ZSetAccessRequest) },
      responses: { 200: json(ZAdminWriteResult, "Recorded as entity.role_changed"), ...errors(...WRITE_ERRORS) },
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
      createRoute({
        ...write,
        method: "post",
        path: `/v1/admin/members/{id}/${verb}`,
        summary,
        request: { params },
        responses: { 200: json(schema, "Done, and recorded in the ledger"), ...errors(...WRITE_ERRORS) },
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
    createRoute({
      ...common,
      method: "get",
      path: "/v1/admin/agents",
      summary: "Agents, their tools and whether paused (owners and admins)",
      responses: { 200: json(ZAgentAdminList, "Every agent not removed"), ...errors(401, 403) },
    }),
    (c) => c.json(api.listAgents(c.get("principal"))),
  );
  route(
    app,
    createRoute({
      ...write,
      method: "put",
      path: "/v1/admin/agents/{id}",
      summary: "Edit an agent: name, role, capabilities, allowed tools",
      request: { params, body: jsonBody(ZUpdateAgentRequest) },
      responses: {
        200: json(ZAdminWriteResult, "Recorded as entity.registered (and agent.tool_mode_set)"),
        ...errors(...WRITE_ERRORS),
      },
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
      createRoute({
        ...write,
        method: "post",
        path: `/v1/admin/agents/{id}/${verb}`,
        summary: verb === "pause" ? "Pause an agent: it proposes and runs nothing" : "Resume a paused agent",
        request: { params },
        responses: { 200: json(ZAdminWriteResult, `Recorded as agent.${verb}d`), ...errors(...WRITE_ERRORS) },
      }),
      (c) =>
        idempotentWrite(core, c, "", (idem) =>
          api.setAgentPaused(c.get("principal"), c.req.valid("param").id, verb === "pause", idem),
        ),
    );
  }
  route(
    app,
    createRoute({
      ...write,
      method: "delete",
      path: "/v1/admin/agents/{id}",
      summary: "Remove an agent from the workspace (its history stays)",
      request: { params },
      responses: {
        200: json(ZAdminWriteResult, "Recorded as entity.deactivated (removed)"),
        ...errors(...WRITE_ERRORS),
      },
    }),
    (c) => idempotentWrite(core, c, "", (idem) => api.removeAgent(c.get("principal"), c.req.valid("param").id, idem)),
  );

  route(
    app,
    createRoute({
      ...common,
      method: "get",
      path: "/v1/admin/tokens",
      summary: "Sign-in tokens: whose, created, last used (owners and admins)",
      responses: { 200: json(ZTokenList, "Live tokens, newest first"), ...errors(401, 403) },
    }),
    async (c) => c.json(await api.listTokens(c.get("principal"))),
  );
  route(
    app,
    createRoute({
      ...write,
      method: "delete",
      path: "/v1/admin/tokens/{id}",
      summary: "Revoke one token: it stops working now",
      request: { params },
      responses: { 200: json(ZAdminWriteResult, "Recorded as entity.tokens_revoked"), ...errors(...WRITE_ERRORS) },
    }),
    (c) => idempotentWrite(core, c, "", (idem) => api.revokeToken(c.get("principal"), c.req.valid("param").id, idem)),
  );
  return app;
}
