import { z } from "@hono/zod-openapi";
import { ZAcceptedResponse, ZAddMemberRequest, ZRenameConversationRequest } from "../../../contracts/gateway.js";
import { ZConversationId, ZEntityId } from "../../../contracts/primitives.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/** Who is in a conversation: add, remove or leave, rename (each a ledger event the policy pack checks). */
export function createMemberRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, emptyWrite } = signedInRoutes(core.tokens);
  const tags = ["Conversations"];
  const conversation = z.object({ id: ZConversationId });
  route(
    app,
    write({
      path: "/v1/conversations/{id}/members",
      summary: "Add a person or agent of the workspace (any member)",
      tags,
      body: ZAddMemberRequest,
      ok: { 202: json(ZAcceptedResponse, "Added") },
      params: conversation,
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.addMember(c.get("principal"), c.req.valid("param").id, body, idem),
      );
    },
  );
  route(
    app,
    emptyWrite({
      method: "delete",
      path: "/v1/conversations/{id}/members/{entity_id}",
      summary: "Leave (my own id) or remove someone (whoever started the conversation, or an admin)",
      tags,
      ok: { 202: json(ZAcceptedResponse, "Left or removed") },
      params: conversation.extend({ entity_id: ZEntityId }),
    }),
    (c) => {
      const { id, entity_id } = c.req.valid("param");
      return idempotentWrite(core, c, "", (idem) => api.removeMember(c.get("principal"), id, entity_id, idem));
    },
  );
  route(
    app,
    write({
      method: "put",
      path: "/v1/conversations/{id}/title",
      summary: "Rename a group (any member)",
      tags,
      body: ZRenameConversationRequest,
      ok: { 202: json(ZAcceptedResponse, "Renamed") },
      params: conversation,
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.renameConversation(c.get("principal"), c.req.valid("param").id, body, idem),
      );
    },
  );
  return app;
}
