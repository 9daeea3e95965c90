import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { createRoute, z } from "@hono/zod-openapi";
import {
  ZAcceptedResponse,
  ZCreateAgentRequest,
  ZCreateAgentResponse,
  ZCreateConversationRequest,
  ZCreateConversationResponse,
  ZCreateInviteRequest,
  ZCreateInviteResponse,
  ZJobActionSubmit,
  ZJobDrawerResponse,
  ZPostMessageRequest,
  ZReadMarkerRequest,
  ZSetMyEmailRequest,
  ZTypingRequest,
} from "../../../contracts/gateway.js";
import {
  ZConversationDetail,
  ZConversationList,
  ZEntityList,
  ZOk,
  ZPresenceList,
  ZTimelinePage,
  ZWriteResult,
} from "../../../contracts/gateway-responses.js";
import { ZConversationId, ZJobId } from "../../../contracts/primitives.js";
import { AppError } from "../../shared/errors.js";
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
import { authenticate, checkIdentity, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../inside.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { ZReceipt } from "../../../contracts/ledger.js";
import { jobReceipt } from "../jobs/receipt.js";

const noParams = z.object({});
const conversationParams = z.object({ id: ZConversationId });
const jobParams = z.object({ job_id: ZJobId });
const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional().openapi({ description: "1–1000 items (default 50)" }),
  before: z
    .string()
    .optional()
    .openapi({ description: "A cursor `seq:N`: items before it (page back with `next_cursor`)" }),
  cursor: z.string().optional().openapi({ description: "A cursor `seq:N`: items after it" }),
  after: z.string().optional().openapi({ description: "Same as `cursor`" }),
});

/** The Messenger's authenticated API: thin adapters over `GatewayApi` (parse, one call, answer). */
export function createApiRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const auth = authenticate(core.tokens);
  const security = SIGNED_IN;
  const write = <T extends z.ZodType, P extends z.ZodObject = typeof noParams>(
    path: string,
    method: "post" | "put",
    body: T,
    summary: string,
    tags: string[],
    ok: Record<number, ReturnType<typeof json>>,
    params?: P,
  ) =>
    createRoute({
      method,
      path,
      summary,
      tags,
      security,
      middleware: [auth] as const,
      request: { body: jsonBody(body), params: params ?? (noParams as P) },
      responses: { ...ok, ...errors(...WRITE_ERRORS) },
      parameters: [IDEMPOTENCY_HEADER],
    });

  route(
    app,
    write("/v1/invites", "post", ZCreateInviteRequest, "Invite a person (admins); the link works once", ["Workspace"], {
      201: json(ZCreateInviteResponse, "The invite link"),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.createInvite(c.get("principal"), body, idem));
    },
  );

  route(
    app,
    write("/v1/agents", "post", ZCreateAgentRequest, "Add an agent coworker (admins)", ["Workspace"], {
      201: json(ZCreateAgentResponse, "The new agent"),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.createAgent(c.get("principal"), body, idem));
    },
  );

  route(
    app,
    write("/v1/me/email", "put", ZSetMyEmailRequest, "Set (or clear) my own email, kept in the vault", ["Session"], {
      200: json(ZWriteResult, "Saved"),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.setMyEmail(c.get("principal"), body.email, idem),
      );
    },
  );

  const read = <P extends z.ZodObject = typeof noParams, Q extends z.ZodObject = typeof noParams>(
    path: string,
    summary: string,
    tags: string[],
    schema: z.ZodType,
    params?: P,
    query?: Q,
  ) =>
    createRoute({
      method: "get",
      path,
      summary,
      tags,
      security,
      middleware: [auth] as const,
      request: { params: params ?? (noParams as P), query: query ?? (noParams as Q) },
      responses: { 200: json(schema, summary), ...errors(...READ_ERRORS) },
    });

  route(app, read("/v1/entities", "People and agents of my workspace", ["Directory"], ZEntityList), (c) =>
    c.json(api.listEntities(c.get("principal"))),
  );
  route(app, read("/v1/presence", "Their presence", ["Directory"], ZPresenceList), (c) =>
    c.json(api.listPresence(c.get("principal"))),
  );

  route(
    app,
    write("/v1/conversations", "post", ZCreateConversationRequest, "Start a conversation I am in", ["Conversations"], {
      202: json(ZCreateConversationResponse, "Created"),
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
    read("/v1/conversations", "My conversations, most recent first", ["Conversations"], ZConversationList),
    (c) => c.json(api.listConversations(c.get("principal"))),
  );
  route(
    app,
    read(
      "/v1/conversations/{id}",
      "A conversation and its participants",
      ["Conversations"],
      ZConversationDetail,
      conversationParams,
    ),
    (c) => c.json(api.getConversation(c.get("principal"), c.req.valid("param").id)),
  );
  // The main spec lists GET …/messages next to …/timeline: one projection, one pagination, two names.
  for (const name of ["timeline", "messages"]) {
    route(
      app,
      read(
        `/v1/conversations/{id}/${name}`,
        "A page of the conversation's items",
        ["Conversations"],
        ZTimelinePage,
        conversationParams,
        pageQuery,
      ),
      (c) => c.json(api.timeline(c.get("principal"), c.req.valid("param").id, c.req.valid("query"))),
    );
  }

  route(
    app,
    write(
      "/v1/conversations/{id}/messages",
      "post",
      ZPostMessageRequest,
      "Post a message (Office answers on the stream) or a card click",
      ["Conversations"],
      { 202: json(ZAcceptedResponse, "Accepted") },
      conversationParams,
    ),
    async (c) => {
      const body = c.req.valid("json");
      const p = c.get("principal");
      checkIdentity(p, body);
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.postMessage(p, c.req.valid("param").id, body, idem),
      );
    },
  );

  route(
    app,
    write(
      "/v1/conversations/{id}/read",
      "post",
      ZReadMarkerRequest,
      "Mark everything up to a cursor read",
      ["Conversations"],
      { 202: json(ZAcceptedResponse, "Accepted") },
      conversationParams,
    ),
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
    createRoute({
      method: "post",
      path: "/v1/conversations/{id}/typing",
      summary:
        "I am typing in it: its other members see it for a few seconds (nothing is stored; no Idempotency-Key needed)",
      tags: ["Conversations"],
      security,
      middleware: [auth] as const,
      request: { body: jsonBody(ZTypingRequest), params: conversationParams },
      responses: { 200: json(ZOk, "Signalled"), ...errors(...READ_ERRORS) },
    }),
    (c) => {
      checkIdentity(c.get("principal"), c.req.valid("json"));
      return c.json(api.signalTyping(c.get("principal"), c.req.valid("param").id), 200);
    },
  );

  route(
    app,
    read(
      "/v1/jobs/{job_id}",
      "The Job Drawer: header, actions, timeline, artifacts, raw events",
      ["Jobs"],
      ZJobDrawerResponse,
      jobParams,
    ),
    async (c) => c.json(await api.getJob(c.get("principal"), c.req.valid("param").job_id)),
  );

  route(
    app,
    read(
      "/v1/jobs/{job_id}/receipt",
      "The job's receipt: its events with RFC 6962 inclusion proofs against a signed checkpoint, checkable offline",
      ["Jobs"],
      ZReceipt,
      jobParams,
    ),
    async (c) => {
      const receipt = await jobReceipt(core, c.get("principal"), c.req.valid("param").job_id);
      c.header("content-disposition", `attachment; filename="receipt-${receipt.job_id}.json"`);
      return c.json(receipt);
    },
  );

  route(
    app,
    write(
      "/v1/jobs/{job_id}/actions",
      "post",
      ZJobActionSubmit,
      "Click a card button (checked before anything is written)",
      ["Jobs"],
      { 202: json(ZAcceptedResponse, "Accepted; Office carries it out") },
      jobParams,
    ),
    async (c) => {
      const body = c.req.valid("json");
      const p = c.get("principal");
      checkIdentity(p, body);
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.submitJobAction(p, c.req.valid("param").job_id, body, idem),
      );
    },
  );

  // SSE. A browser EventSource cannot send headers, so the session cookie authenticates it; the
  // resume cursor comes from Last-Event-ID (automatic reconnects) or ?cursor= (a fresh page).
  const stream = createRoute({
    method: "get",
    path: "/v1/stream",
    summary:
      "My live updates (server-sent events: hello, timeline.append, conversation.update, job.update, presence.update, artifact.added, heartbeat, error)",
    tags: ["Live"],
    security,
    middleware: [auth] as const,
    request: { query: z.object({ cursor: z.string().optional() }) },
    responses: {
      200: {
        description: "An event stream; resume with Last-Event-ID",
        content: { "text/event-stream": { schema: z.string() } },
      },
      ...errors(400, 401, 404, 429),
    },
  });
  route(app, stream, (c) => {
    const p = c.get("principal");
    const lastEventId = c.req.header("last-event-id");
    const cursor = api.streamCursor(
      p,
      lastEventId ?? c.req.query("cursor"),
      lastEventId !== undefined ? "Last-Event-ID" : "cursor",
    );
    const res = c.env?.outgoing;
    if (!res) throw new AppError("SERVICE_UNAVAILABLE", "The stream needs a Node HTTP server");
    api.stream(p, res, cursor ?? null, c.get("tokenHash"));
    return RESPONSE_ALREADY_SENT;
  });

  return app;
}
