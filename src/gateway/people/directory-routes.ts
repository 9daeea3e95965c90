import { ZEntityList, ZPresenceList } from "../../../contracts/gateway-responses.js";
import { createRouter, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/** The people and agents of my workspace and their presence. */
export function createDirectoryRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { read } = signedInRoutes(core.tokens);

  route(app, read("/v1/entities", "People and agents of my workspace", ["Directory"], ZEntityList), (c) =>
    c.json(api.listEntities(c.get("principal"))),
  );
  route(app, read("/v1/presence", "Their presence", ["Directory"], ZPresenceList), (c) =>
    c.json(api.listPresence(c.get("principal"))),
  );

  return app;
}
