import { z } from "@hono/zod-openapi";
import { ZSetAgentToolsRequest } from "../../../contracts/gateway.js";
import { ZAgentTools } from "../../../contracts/gateway-responses.js";
import { ADMIN_READ_ERRORS, createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/** What an agent may do with each tool (admins): auto, approve or off, as ledger events the policy pack enforces. */
export function createAgentToolRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, read } = signedInRoutes(core.tokens);
  const tags = ["Workspace"];
  const params = z.object({ id: z.string().min(1).max(128) });
  route(
    app,
    read({
      path: "/v1/agents/{id}/tools",
      summary: "An agent's tools and their modes (admins)",
      tags,
      schema: ZAgentTools,
      described: "Built-in and MCP tools, each with its mode and the suggested one",
      errors: [...ADMIN_READ_ERRORS, 404],
      params,
    }),
    (c) => c.json(api.agentTools(c.get("principal"), c.req.valid("param").id)),
  );
  route(
    app,
    write({
      method: "put",
      path: "/v1/agents/{id}/tools",
      summary: "Choose auto, approve or off per tool (admins)",
      tags,
      body: ZSetAgentToolsRequest,
      ok: { 200: json(ZAgentTools, "The agent's tools with the new modes") },
      params,
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
