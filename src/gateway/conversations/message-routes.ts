import { createRoute, z } from "@hono/zod-openapi";
import {
  ZAcceptedResponse,
  ZEditMessageRequest,
  ZForwardRequest,
  ZPinRequest,
  ZReactRequest,
  ZRemovePreviewRequest,
} from "../../../contracts/gateway.js";
import { ZMessageView, ZPinnedMessages } from "../../../contracts/gateway-responses.js";
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

const messageParams = z.object({ id: ZConversationId, message_id: z.string().min(1).max(128) });
const ZMessageAccepted = ZAcceptedResponse.extend({ message_id: z.string() });

/**
 * A message already sent: read one (a link to it), edit, delete, react, pin, forward. Each change
 * is one ledger event the policy pack checks.
 */
export function createMessageRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = {
    tags: ["Conversations"],
    security: SIGNED_IN,
    middleware: authenticate(core.tokens),
    parameters: [IDEMPOTENCY_HEADER],
    responses: {
      202: json(ZMessageAccepted, "Accepted; the change arrives on the stream as timeline.update"),
      ...errors(...WRITE_ERRORS),
    },
  };
  route(
    app,
    createRoute({
      ...common,
      method: "patch",
      path: "/v1/conversations/{id}/messages/{message_id}",
      summary: "Edit my message (its author, within MESSAGE_EDIT_WINDOW_SECONDS)",
      request: { params: messageParams, body: jsonBody(ZEditMessageRequest) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { id, message_id } = c.req.valid("param");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.editMessage(c.get("principal"), id, message_id, body, idem),
      );
    },
  );
  route(
    app,
    createRoute({
      ...common,
      method: "delete",
      path: "/v1/conversations/{id}/messages/{message_id}",
      summary: "Delete a message (its author, or an admin): its text leaves every view",
      request: { params: messageParams },
    }),
    async (c) => {
      const { id, message_id } = c.req.valid("param");
      return idempotentWrite(core, c, "", (idem) => api.deleteMessage(c.get("principal"), id, message_id, idem));
    },
  );
  route(
    app,
    createRoute({
      ...common,
      method: "post",
      path: "/v1/conversations/{id}/messages/{message_id}/reactions",
      summary: "Put my reaction on a message, or take it off (one emoji)",
      request: { params: messageParams, body: jsonBody(ZReactRequest) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { id, message_id } = c.req.valid("param");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.reactToMessage(c.get("principal"), id, message_id, body, idem),
      );
    },
  );
  route(
    app,
    createRoute({
      ...common,
      method: "post",
      path: "/v1/conversations/{id}/messages/{message_id}/pin",
      summary: "Pin a message to its conversation, or unpin it (members)",
      request: { params: messageParams, body: jsonBody(ZPinRequest) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { id, message_id } = c.req.valid("param");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.pinMessage(c.get("principal"), id, message_id, body, idem),
      );
    },
  );
  route(
    app,
    createRoute({
      ...common,
      method: "post",
      path: "/v1/conversations/{id}/messages/{message_id}/previews/remove",
      summary: "Take the preview of a link off my message (its author), for everyone",
      request: { params: messageParams, body: jsonBody(ZRemovePreviewRequest) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { id, message_id } = c.req.valid("param");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.removePreview(c.get("principal"), id, message_id, body, idem),
      );
    },
  );
  route(
    app,
    createRoute({
      ...common,
      method: "post",
      path: "/v1/conversations/{id}/messages/{message_id}/forward",
      summary: "Forward a copy of a text message to another conversation I am in (shown as forwarded, with its author)",
      request: { params: messageParams, body: jsonBody(ZForwardRequest) },
      responses: {
        202: json(ZMessageAccepted, "Accepted; the copy arrives in the target conversation as timeline.append"),
        ...errors(...WRITE_ERRORS),
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { id, message_id } = c.req.valid("param");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.forwardMessage(c.get("principal"), id, message_id, body, idem),
      );
    },
  );
  const reading = { tags: ["Conversations"], security: SIGNED_IN, middleware: authenticate(core.tokens) };
  route(
    app,
    createRoute({
      ...reading,
      method: "get",
      path: "/v1/conversations/{id}/messages/{message_id}",
      summary:
        "One message, for a link to it (404 alike for someone outside the conversation and for a deleted message)",
      request: { params: messageParams },
      responses: { 200: json(ZMessageView, "The message as its timeline shows it"), ...errors(...READ_ERRORS) },
    }),
    (c) => {
      const { id, message_id } = c.req.valid("param");
      return c.json(api.getMessage(c.get("principal"), id, message_id));
    },
  );
  route(
    app,
    createRoute({
      ...reading,
      method: "get",
      path: "/v1/conversations/{id}/pins",
      summary: "The conversation's pinned messages, in the order they were pinned",
      request: { params: z.object({ id: ZConversationId }) },
      responses: { 200: json(ZPinnedMessages, "Pinned messages"), ...errors(...READ_ERRORS) },
    }),
    (c) => c.json(api.listPins(c.get("principal"), c.req.valid("param").id)),
  );
  return app;
}
