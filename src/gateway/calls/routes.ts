import { z } from "@hono/zod-openapi";
import { ZAcceptedResponse } from "../../../contracts/gateway.js";
import { ZConversationId } from "../../../contracts/primitives.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

const ZCallStarted = ZAcceptedResponse.extend({ message_id: z.string(), url: z.string() });

/** Start a call in a conversation: a Jitsi Meet room on JITSI_BASE_URL, posted as a message (members). */
export function createCallRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { emptyWrite } = signedInRoutes(core.tokens);
  route(
    app,
    emptyWrite({
      method: "post",
      path: "/v1/conversations/{id}/call",
      summary:
        "Start a call: a Jitsi Meet room posted to the conversation as a message (503 when JITSI_BASE_URL is not set)",
      tags: ["Conversations"],
      ok: { 202: json(ZCallStarted, "Accepted; the message with the room arrives as timeline.append") },
      params: z.object({ id: ZConversationId }),
    }),
    async (c) =>
      idempotentWrite(core, c, "", (idem) => api.startCall(c.get("principal"), c.req.valid("param").id, idem)),
  );
  return app;
}
