import {
  ZCreateAgentRequest,
  ZCreateAgentResponse,
  ZCreateInviteRequest,
  ZCreateInviteResponse,
  ZSetMyEmailRequest,
} from "../../../contracts/gateway.js";
import { ZWriteResult } from "../../../contracts/gateway-responses.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { signedInRoutes } from "../http/signed-in-routes.js";
import { idempotentWrite } from "../http/idempotent-write.js";

/** Inviting people, adding agents and my own email: thin adapters over `GatewayApi`. */
export function createWorkspaceRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write } = signedInRoutes(core.tokens);

  route(
    app,
    write("/v1/invites", "post", ZCreateInviteRequest, "Invite a person (admins); the link works once", ["Workspace"], {
      201: json(ZCreateInviteResponse, "The invite link"),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.createInvite(c.get("principal"), body, idem));
    },
  );

  route(
    app,
    write("/v1/agents", "post", ZCreateAgentRequest, "Add an agent coworker (admins)", ["Workspace"], {
      201: json(ZCreateAgentResponse, "The new agent"),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.createAgent(c.get("principal"), body, idem));
    },
  );

  route(
    app,
    write("/v1/me/email", "put", ZSetMyEmailRequest, "Set (or clear) my own email, kept in the vault", ["Session"], {
      200: json(ZWriteResult, "Saved"),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.setMyEmail(c.get("principal"), body.email, idem),
      );
    },
  );

  return app;
}
