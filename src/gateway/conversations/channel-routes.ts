import { createRoute, z } from "@hono/zod-openapi";
import { ZAcceptedResponse } from "../../../contracts/gateway.js";
import { ZChannelList } from "../../../contracts/gateway-responses.js";
import { ZConversationId } from "../../../contracts/primitives.js";
import {
  createRouter,
  errors,
  IDEMPOTENCY_HEADER,
  json,
  READ_ERRORS,
  route,
  SIGNED_IN,
  WRITE_ERRORS,
} from "../../shared/openapi.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";

/**
 * Public channels: Browse channels (anyone of the workspace) and Join (a `conversation.joined`
 * the policy pack checks). Creating one is `POST /v1/conversations` with `visibility: public`;
 * leaving is `DELETE /v1/conversations/{id}/members/{my id}`, as for any group.
 */
export function createChannelRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = { tags: ["Conversations"], security: SIGNED_IN, middleware: authenticate(core.tokens) };
  route(
    app,
    createRoute({
      ...common,
      method: "get",
      path: "/v1/channels",
      summary: "The workspace's public channels: name, member count, whether I am in it (never their messages)",
      responses: { 200: json(ZChannelList, "Public channels, by name"), ...errors(...READ_ERRORS) },
    }),
    (c) => c.json(api.listChannels(c.get("principal"))),
  );
  route(
    app,
    createRoute({
      ...common,
      method: "post",
      path: "/v1/conversations/{id}/join",
      summary: "Join a public channel myself (a private conversation answers 404; joining twice 409)",
      parameters: [IDEMPOTENCY_HEADER],
      request: { params: z.object({ id: ZConversationId }) },
      responses: { 202: json(ZAcceptedResponse, "Joined"), ...errors(...WRITE_ERRORS) },
    }),
    (c) => idempotentWrite(core, c, "", (idem) => api.joinChannel(c.get("principal"), c.req.valid("param").id, idem)),
  );
  return app;
}
