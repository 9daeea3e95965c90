import { createRoute, z } from "@hono/zod-openapi";
import { ZAcceptedResponse, ZFollowThreadRequest, ZThreadReadRequest } from "../../../contracts/gateway.js";
import { ZThreadMarks, ZThreadView } from "../../../contracts/gateway-responses.js";
import { ZConversationId } from "../../../contracts/primitives.js";
import {
  createRouter,
  errors,
  IDEMPOTENCY_HEADER,
  json,
  jsonBody,
  READ_ERRORS,
  route,
  SIGNED_IN,
  WRITE_ERRORS,
} from "../../shared/openapi.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";

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
  const reading = { tags: ["Conversations"], security: SIGNED_IN, middleware: authenticate(core.tokens) };
  const writing = {
    ...reading,
    parameters: [IDEMPOTENCY_HEADER],
    responses: {
      202: json(ZThreadAccepted, "Accepted; my mark arrives on the stream as thread.update"),
      ...errors(...WRITE_ERRORS),
    },
  };
  route(
    app,
    createRoute({
      ...reading,
      method: "get",
      path: "/v1/conversations/{id}/threads",
      summary: "The threads of the conversation I follow, with how many replies I have not read",
      request: { params: z.object({ id: ZConversationId }) },
      responses: { 200: json(ZThreadMarks, "My threads here"), ...errors(...READ_ERRORS) },
    }),
    (c) => c.json(api.listThreadMarks(c.get("principal"), c.req.valid("param").id)),
  );
  route(
    app,
    createRoute({
      ...reading,
      method: "get",
      path: "/v1/conversations/{id}/threads/{message_id}",
      summary: "A thread: its root message, its replies oldest first, and whether I follow it",
      request: { params: threadParams },
      responses: { 200: json(ZThreadView, "The thread"), ...errors(...READ_ERRORS) },
    }),
    (c) => {
      const { id, message_id } = c.req.valid("param");
      return c.json(api.getThread(c.get("principal"), id, message_id));
    },
  );
  route(
    app,
    createRoute({
      ...writing,
      method: "post",
      path: "/v1/conversations/{id}/threads/{message_id}/follow",
      summary: "Follow a thread (told of its new replies), or stop following it",
      request: { params: threadParams, body: jsonBody(ZFollowThreadRequest) },
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
    createRoute({
      ...writing,
      method: "post",
      path: "/v1/conversations/{id}/threads/{message_id}/read",
      summary: "I have read the thread's replies up to a cursor (clears my unread mark)",
      request: { params: threadParams, body: jsonBody(ZThreadReadRequest) },
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
