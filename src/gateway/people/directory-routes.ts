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

  route(
    app,
    read({
      path: "/v1/entities",
      summary: "People and agents of my workspace",
      tags: ["Directory"],
      schema: ZEntityList,
    }),
    (c) => c.json(api.listEntities(c.get("principal"))),
  );
  route(
    app,
    read({ path: "/v1/presence", summary: "Their presence", tags: ["Directory"], schema: ZPresenceList }),
    (c) => c.json(api.listPresence(c.get("principal"))),
  );

  return app;
}
