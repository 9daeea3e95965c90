import { createRoute, z } from "@hono/zod-openapi";
import { ZSetAgentToolsRequest } from "../../../contracts/gateway.js";
import { ZAgentTools } from "../../../contracts/gateway-responses.js";
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

/** What an agent may do with each tool (admins): auto, approve or off, as ledger events the policy pack enforces. */
export function createAgentToolRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = { tags: ["Workspace"], security: SIGNED_IN, middleware: authenticate(core.tokens) };
  const params = z.object({ id: z.string().min(1).max(128) });
  route(
    app,
    createRoute({
      ...common,
      method: "get",
      path: "/v1/agents/{id}/tools",
      summary: "An agent's tools and their modes (admins)",
      request: { params },
      responses: {
        200: json(ZAgentTools, "Built-in and MCP tools, each with its mode and the suggested one"),
        ...errors(401, 403, 404),
      },
    }),
    (c) => c.json(api.agentTools(c.get("principal"), c.req.valid("param").id)),
  );
  route(
    app,
    createRoute({
      ...common,
      method: "put",
      path: "/v1/agents/{id}/tools",
      summary: "Choose auto, approve or off per tool (admins)",
      parameters: [IDEMPOTENCY_HEADER],
      request: { params, body: jsonBody(ZSetAgentToolsRequest) },
      responses: { 200: json(ZAgentTools, "The agent's tools with the new modes"), ...errors(...WRITE_ERRORS) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.setAgentTools(c.get("principal"), c.req.valid("param").id, body, idem),
      );
    },
  );
  return app;
}
