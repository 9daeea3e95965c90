import { createRoute, z } from "@hono/zod-openapi";
import { ZEntityList, ZPresenceList } from "../../../contracts/gateway-responses.js";
import { createRouter, errors, json, READ_ERRORS, route, SIGNED_IN } from "../../shared/openapi.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";

const noParams = z.object({});

/** The people and agents of my workspace and their presence. */
export function createDirectoryRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const auth = authenticate(core.tokens);
  const security = SIGNED_IN;

  const read = <P extends z.ZodObject = typeof noParams, Q extends z.ZodObject = typeof noParams>(
    path: string,
    summary: string,
    tags: string[],
    schema: z.ZodType,
    params?: P,
    query?: Q,
  ) =>
    createRoute({
      method: "get",
      path,
      summary,
      tags,
      security,
      middleware: [auth] as const,
      request: { params: params ?? (noParams as P), query: query ?? (noParams as Q) },
      responses: { 200: json(schema, summary), ...errors(...READ_ERRORS) },
    });

  route(app, read("/v1/entities", "People and agents of my workspace", ["Directory"], ZEntityList), (c) =>
    c.json(api.listEntities(c.get("principal"))),
  );
  route(app, read("/v1/presence", "Their presence", ["Directory"], ZPresenceList), (c) =>
    c.json(api.listPresence(c.get("principal"))),
  );

  return app;
}
