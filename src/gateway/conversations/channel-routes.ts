import { z } from "@hono/zod-openapi";
import { ZAcceptedResponse } from "../../../contracts/gateway.js";
import { ZChannelList } from "../../../contracts/gateway-responses.js";
import { ZConversationId } from "../../../contracts/primitives.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/**
 * Public channels: Browse channels (anyone of the workspace) and Join (a `conversation.joined`
 * the policy pack checks). Creating one is `POST /v1/conversations` with `visibility: public`;
 * leaving is `DELETE /v1/conversations/{id}/members/{my id}`, as for any group.
 */
export function createChannelRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { emptyWrite, read } = signedInRoutes(core.tokens);
  const tags = ["Conversations"];
  route(
    app,
    read({
      path: "/v1/channels",
      summary: "The workspace's public channels: name, member count, whether I am in it (never their messages)",
      tags,
      schema: ZChannelList,
      described: "Public channels, by name",
    }),
    (c) => c.json(api.listChannels(c.get("principal"))),
  );
  route(
    app,
    emptyWrite({
      method: "post",
      path: "/v1/conversations/{id}/join",
      summary: "Join a public channel myself (a private conversation answers 404; joining twice 409)",
      tags,
      ok: { 202: json(ZAcceptedResponse, "Joined") },
      params: z.object({ id: ZConversationId }),
    }),
    (c) => idempotentWrite(core, c, "", (idem) => api.joinChannel(c.get("principal"), c.req.valid("param").id, idem)),
  );
  return app;
}
