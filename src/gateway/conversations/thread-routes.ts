import { z } from "@hono/zod-openapi";
import { ZAcceptedResponse, ZFollowThreadRequest, ZThreadReadRequest } from "../../../contracts/gateway.js";
import { ZThreadMarks, ZThreadView } from "../../../contracts/gateway-responses.js";
import { ZConversationId } from "../../../contracts/primitives.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

const threadParams = z.object({ id: ZConversationId, message_id: z.string().min(1).max(128) });
const ZThreadAccepted = ZAcceptedResponse.extend({ message_id: z.string() });

/**
 * Threads: a message's replies beside the conversation (posted with `thread_root_message_id` on
 * `POST /v1/conversations/{id}/messages`), read whole, followed or not, with each member's own
 * unread mark. Members of the conversation only.
 */
export function createThreadRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, read } = signedInRoutes(core.tokens);
  const tags = ["Conversations"];
  const accepted = { 202: json(ZThreadAccepted, "Accepted; my mark arrives on the stream as thread.update") };
  route(
    app,
    read({
      path: "/v1/conversations/{id}/threads",
      summary: "The threads of the conversation I follow, with how many replies I have not read",
      tags,
      schema: ZThreadMarks,
      described: "My threads here",
      params: z.object({ id: ZConversationId }),
    }),
    (c) => c.json(api.listThreadMarks(c.get("principal"), c.req.valid("param").id)),
  );
  route(
    app,
    read({
      path: "/v1/conversations/{id}/threads/{message_id}",
      summary: "A thread: its root message, its replies oldest first, and whether I follow it",
      tags,
      schema: ZThreadView,
      described: "The thread",
      params: threadParams,
    }),
    (c) => {
      const { id, message_id } = c.req.valid("param");
      return c.json(api.getThread(c.get("principal"), id, message_id));
    },
  );
  route(
    app,
    write({
      path: "/v1/conversations/{id}/threads/{message_id}/follow",
      summary: "Follow a thread (told of its new replies), or stop following it",
      tags,
      body: ZFollowThreadRequest,
      ok: accepted,
      params: threadParams,
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { id, message_id } = c.req.valid("param");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.followThread(c.get("principal"), id, message_id, body, idem),
      );
    },
  );
  route(
    app,
    write({
      path: "/v1/conversations/{id}/threads/{message_id}/read",
      summary: "I have read the thread's replies up to a cursor (clears my unread mark)",
      tags,
      body: ZThreadReadRequest,
      ok: accepted,
      params: threadParams,
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { id, message_id } = c.req.valid("param");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.readThread(c.get("principal"), id, message_id, body, idem),
      );
    },
  );
  return app;
}
