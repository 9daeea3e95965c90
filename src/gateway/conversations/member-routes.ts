import { createRoute, z } from "@hono/zod-openapi";
import { ZAcceptedResponse, ZAddMemberRequest, ZRenameConversationRequest } from "../../../contracts/gateway.js";
import { ZConversationId, ZEntityId } from "../../../contracts/primitives.js";
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

/** Who is in a conversation: add, remove or leave, rename (each a ledger event the policy pack checks). */
export function createMemberRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = {
    tags: ["Conversations"],
    security: SIGNED_IN,
    middleware: authenticate(core.tokens),
    parameters: [IDEMPOTENCY_HEADER],
  };
  const conversation = z.object({ id: ZConversationId });
  route(
    app,
    createRoute({
      ...common,
      method: "post",
      path: "/v1/conversations/{id}/members",
      summary: "Add a person or agent of the workspace (any member)",
      request: { params: conversation, body: jsonBody(ZAddMemberRequest) },
      responses: { 202: json(ZAcceptedResponse, "Added"), ...errors(...WRITE_ERRORS) },
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
    createRoute({
      ...common,
      method: "delete",
      path: "/v1/conversations/{id}/members/{entity_id}",
      summary: "Leave (my own id) or remove someone (whoever started the conversation, or an admin)",
      request: { params: conversation.extend({ entity_id: ZEntityId }) },
      responses: { 202: json(ZAcceptedResponse, "Left or removed"), ...errors(...WRITE_ERRORS) },
    }),
    (c) => {
      const { id, entity_id } = c.req.valid("param");
      return idempotentWrite(core, c, "", (idem) => api.removeMember(c.get("principal"), id, entity_id, idem));
    },
  );
  route(
    app,
    createRoute({
      ...common,
      method: "put",
      path: "/v1/conversations/{id}/title",
      summary: "Rename a group (any member)",
      request: { params: conversation, body: jsonBody(ZRenameConversationRequest) },
      responses: { 202: json(ZAcceptedResponse, "Renamed"), ...errors(...WRITE_ERRORS) },
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
