import { Hono } from "hono";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { ZCreateAgentRequest, ZCreateConversationRequest, ZCreateInviteRequest, ZJobActionSubmit, ZPostMessageRequest, ZReadMarkerRequest, ZSetMyEmailRequest } from "../../../contracts/gateway.js";
import { ZJobId } from "../../../contracts/primitives.js";
import { AppError } from "../../shared/errors.js";
import { authenticate, checkIdentity, type GwEnv } from "../auth/middleware.js";
import { createConversation, markRead, memberConversation, postText } from "../commands/conversations.js";
import { llmAudit } from "../commands/llm.js";
import { submitJobAction } from "../commands/job-action.js";
import { createAgent, createInvite, setMyEmail } from "../commands/workspaces.js";
import type { Gateway } from "../gateway.js";
import { parseWith, readJson } from "../http-body.js";
import { cursorParam, getConversation, getJob, getTimeline, listConversations, listEntities, listPresence } from "../reads.js";
import { idempotentWrite } from "./write.js";

/** Thin adapters: parse with the contract schema, one gateway call, a status. */
export function createApiRoutes(gw: Gateway): Hono<GwEnv> {
  const core = gw.core;
  const app = new Hono<GwEnv>();
  const auth = authenticate(core.tokens);

  app.post("/v1/invites", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZCreateInviteRequest, value, "invite");
    return idempotentWrite(core, c, raw, (idem) => createInvite(core, c.get("principal"), body, idem));
  });

  app.post("/v1/agents", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZCreateAgentRequest, value, "agent");
    return idempotentWrite(core, c, raw, (idem) => createAgent(core, c.get("principal"), body, idem));
  });

  app.put("/v1/me/email", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZSetMyEmailRequest, value, "email");
    return idempotentWrite(core, c, raw, (idem) => setMyEmail(core, c.get("principal"), body.email, idem));
  });

  app.get("/v1/entities", auth, (c) => c.json(listEntities(core, c.get("principal"))));
  app.get("/v1/presence", auth, (c) => c.json(listPresence(core, c.get("principal"))));

  app.post("/v1/conversations", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZCreateConversationRequest, value, "conversation");
    checkIdentity(c.get("principal"), body);
    return idempotentWrite(core, c, raw, (idem) => createConversation(core, c.get("principal"), body, idem));
  });
  app.get("/v1/conversations", auth, (c) => c.json(listConversations(core, c.get("principal"))));
  app.get("/v1/conversations/:id", auth, (c) => c.json(getConversation(core, c.get("principal"), c.req.param("id"))));
  // The main spec lists GET …/messages next to …/timeline: one projection, one pagination, two names.
  app.get("/v1/conversations/:id/timeline", auth, (c) => c.json(getTimeline(core, c.get("principal"), c.req.param("id"), c.req.query())));
  app.get("/v1/conversations/:id/messages", auth, (c) => c.json(getTimeline(core, c.get("principal"), c.req.param("id"), c.req.query())));

  app.post("/v1/conversations/:id/messages", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZPostMessageRequest, value, "message");
    const p = c.get("principal");
    checkIdentity(p, body);
    const conversationId = c.req.param("id");
    return idempotentWrite(core, c, raw, (idem) => {
      if (body.kind !== "text") return submitJobAction(core, p, { ...body, conversation_id: conversationId }, idem);
      // Tokens are checked before anything is stored: a bad one is a 422, no message, no model call.
      memberConversation(core, p, conversationId);
      core.office.checkMessage({ tenant_id: p.tenantId, conversation_id: conversationId, actor_entity_id: p.entityId, body_text: body.body_text });
      return postText(core, p, conversationId, body, idem);
    });
  });

  app.post("/v1/conversations/:id/read", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZReadMarkerRequest, value, "read marker");
    checkIdentity(c.get("principal"), body);
    return idempotentWrite(core, c, raw, (idem) => markRead(core, c.get("principal"), c.req.param("id"), body, idem));
  });

  app.get("/v1/jobs/:job_id", auth, (c) => {
    const job = getJob(core, c.get("principal"), c.req.param("job_id"));
    return c.json({ ...job, llm: llmAudit(core, c.get("principal"), job.job_id) });
  });

  app.post("/v1/jobs/:job_id/actions", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZJobActionSubmit, value, "job action");
    const jobId = parseWith(ZJobId, c.req.param("job_id"), "job_id");
    const p = c.get("principal");
    checkIdentity(p, body);
    return idempotentWrite(core, c, raw, (idem) => submitJobAction(core, p, { ...body, job_id: jobId }, idem));
  });

  // SSE. A browser EventSource cannot send headers, so the session cookie authenticates it; the
  // resume cursor comes from Last-Event-ID (automatic reconnects) or ?cursor= (a fresh page).
  app.get("/v1/stream", auth, (c) => {
    const p = c.get("principal");
    const rawCursor = c.req.header("last-event-id") ?? c.req.query("cursor");
    const state = core.tenant(p.tenantId);
    const cursor = cursorParam(rawCursor, c.req.header("last-event-id") !== undefined ? "Last-Event-ID" : "cursor", state.head);
    const res = c.env?.outgoing;
    if (!res) throw new AppError("SERVICE_UNAVAILABLE", "The stream needs a Node HTTP server");
    gw.stream(p, res, cursor ?? null, c.get("tokenHash"));
    return RESPONSE_ALREADY_SENT;
  });

  return app;
}
