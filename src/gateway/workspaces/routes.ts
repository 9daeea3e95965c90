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
    write({
      path: "/v1/invites",
      summary: "Invite a person (admins); the link works once",
      tags: ["Workspace"],
      body: ZCreateInviteRequest,
      ok: { 201: json(ZCreateInviteResponse, "The invite link") },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.createInvite(c.get("principal"), body, idem));
    },
  );

  route(
    app,
    write({
      path: "/v1/agents",
      summary: "Add an agent coworker (admins)",
      tags: ["Workspace"],
      body: ZCreateAgentRequest,
      ok: { 201: json(ZCreateAgentResponse, "The new agent") },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.createAgent(c.get("principal"), body, idem));
    },
  );

  route(
    app,
    write({
      method: "put",
      path: "/v1/me/email",
      summary: "Set (or clear) my own email, kept in the vault",
      tags: ["Session"],
      body: ZSetMyEmailRequest,
      ok: { 200: json(ZWriteResult, "Saved") },
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
