import { z } from "@hono/zod-openapi";
import {
  ZAcceptedResponse,
  ZCreateConversationRequest,
  ZCreateConversationResponse,
  ZPostMessageRequest,
  ZReadMarkerRequest,
  ZTypingRequest,
} from "../../../contracts/gateway.js";
import { ZConversationDetail, ZConversationList, ZOk, ZTimelinePage } from "../../../contracts/gateway-responses.js";
import { ZConversationId } from "../../../contracts/primitives.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import { checkIdentity, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { signedInRoutes } from "../http/signed-in-routes.js";
import { idempotentWrite } from "../http/idempotent-write.js";

const conversationParams = z.object({ id: ZConversationId });
const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional().openapi({ description: "1–1000 items (default 50)" }),
  before: z
    .string()
    .optional()
    .openapi({ description: "A cursor `seq:N`: items before it (page back with `next_cursor`)" }),
  cursor: z.string().optional().openapi({ description: "A cursor `seq:N`: items after it" }),
  after: z.string().optional().openapi({ description: "Same as `cursor`" }),
});

/** Conversations: start one, list, read a page, post, mark read, typing. Thin adapters over `GatewayApi`. */
export function createConversationRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, read, ask } = signedInRoutes(core.tokens);

  route(
    app,
    write({
      path: "/v1/conversations",
      summary: "Start a conversation I am in",
      tags: ["Conversations"],
      body: ZCreateConversationRequest,
      ok: { 202: json(ZCreateConversationResponse, "Created") },
    }),
    async (c) => {
      const body = c.req.valid("json");
      checkIdentity(c.get("principal"), body);
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.createConversation(c.get("principal"), body, idem),
      );
    },
  );
  route(
    app,
    read({
      path: "/v1/conversations",
      summary: "My conversations, most recent first",
      tags: ["Conversations"],
      schema: ZConversationList,
    }),
    (c) => c.json(api.listConversations(c.get("principal"))),
  );
  route(
    app,
    read({
      path: "/v1/conversations/{id}",
      summary: "A conversation and its participants",
      tags: ["Conversations"],
      schema: ZConversationDetail,
      params: conversationParams,
    }),
    (c) => c.json(api.getConversation(c.get("principal"), c.req.valid("param").id)),
  );
  // The main spec lists GET …/messages next to …/timeline: one projection, one pagination, two names.
  for (const name of ["timeline", "messages"]) {
    route(
      app,
      read({
        path: `/v1/conversations/{id}/${name}`,
        summary: "A page of the conversation's items",
        tags: ["Conversations"],
        schema: ZTimelinePage,
        params: conversationParams,
        query: pageQuery,
      }),
      (c) => c.json(api.timeline(c.get("principal"), c.req.valid("param").id, c.req.valid("query"))),
    );
  }

  route(
    app,
    write({
      path: "/v1/conversations/{id}/messages",
      summary: "Post a message (Office answers on the stream) or a card click",
      tags: ["Conversations"],
      body: ZPostMessageRequest,
      ok: { 202: json(ZAcceptedResponse, "Accepted") },
      params: conversationParams,
    }),
    async (c) => {
      const body = c.req.valid("json");
      const p = c.get("principal");
      checkIdentity(p, body);
      const id = c.req.valid("param").id;
      // The body is a text or a card click, each with its own method (a click made in a chat card).
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        body.kind === "text"
          ? api.postMessage(p, id, body, idem)
          : api.submitJobAction(p, body.job_id, { ...body, conversation_id: id }, idem),
      );
    },
  );

  route(
    app,
    write({
      path: "/v1/conversations/{id}/read",
      summary: "Mark everything up to a cursor read",
      tags: ["Conversations"],
      body: ZReadMarkerRequest,
      ok: { 202: json(ZAcceptedResponse, "Accepted") },
      params: conversationParams,
    }),
    async (c) => {
      const body = c.req.valid("json");
      checkIdentity(c.get("principal"), body);
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.markRead(c.get("principal"), c.req.valid("param").id, body, idem),
      );
    },
  );

  route(
    app,
    ask({
      path: "/v1/conversations/{id}/typing",
      summary:
        "I am typing in it: its other members see it for a few seconds (nothing is stored; no Idempotency-Key needed)",
      tags: ["Conversations"],
      body: ZTypingRequest,
      schema: ZOk,
      described: "Signalled",
      params: conversationParams,
    }),
    (c) => {
      checkIdentity(c.get("principal"), c.req.valid("json"));
      return c.json(api.signalTyping(c.get("principal"), c.req.valid("param").id), 200);
    },
  );

  return app;
}
