import { z } from "@hono/zod-openapi";
import {
  ZApplySuggestionRequest,
  ZAssistResponse,
  ZThreadContextUpdate,
  ZThreadContextView,
} from "../../../contracts/llm.js";
import { ZAcceptedResponse } from "../../../contracts/gateway.js";
import { ZConversationTools } from "../../../contracts/gateway-responses.js";
import { ZConversationId, ZJobId, ZTraceId } from "../../../contracts/primitives.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

const ZSuggestionId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/);

/**
 * Office's LLM layer over HTTP: the conversation's ThreadContext (pin/unpin, the ActionSummary's
 * Change) and the Job Drawer's Assist. Thin adapters like every other route: auth, parse with
 * the contract, one call, and Idempotency-Key on every write.
 */
export function createLlmRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, read } = signedInRoutes(core.tokens);
  const conversation = z.object({ id: ZConversationId });

  const context = read({
    path: "/v1/conversations/{id}/context",
    summary: "The conversation's job context (pinned, target, recent jobs)",
    tags: ["Conversations"],
    schema: ZThreadContextView,
    described: "Its ThreadContext",
    params: conversation,
  });
  route(app, context, (c) => c.json(api.threadContext(c.get("principal"), c.req.valid("param").id)));

  const tools = read({
    path: "/v1/conversations/{id}/tools",
    summary: "The MCP tools the conversation's agent may use, with their input schemas (for /run)",
    tags: ["Conversations"],
    schema: ZConversationTools,
    described: "Its agent's usable tools",
    params: conversation,
  });
  route(app, tools, (c) => c.json(api.conversationTools(c.get("principal"), c.req.valid("param").id)));

  for (const what of ["pin", "target"] as const) {
    const set = write({
      path: `/v1/conversations/{id}/context/${what}`,
      summary: what === "pin" ? "Pin a job (null unpins)" : "Make a job the target of later messages",
      tags: ["Conversations"],
      body: ZThreadContextUpdate,
      ok: { 200: json(ZThreadContextView, "The updated ThreadContext") },
      params: conversation,
    });
    route(app, set, async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.setThreadContext(c.get("principal"), c.req.valid("param").id, what, body.job_id, idem),
      );
    });
  }

  const assist = read({
    path: "/v1/jobs/{job_id}/assist",
    summary: "Assist: validated suggestions for a job",
    tags: ["Jobs"],
    schema: ZAssistResponse,
    described: "Suggestions",
    params: z.object({ job_id: ZJobId }),
  });
  route(app, assist, async (c) => {
    const trace = c.req.header("x-trace-id");
    return c.json(
      await api.assist(
        c.get("principal"),
        c.req.valid("param").job_id,
        trace && ZTraceId.safeParse(trace).success ? trace : core.ids("trc"),
      ),
    );
  });

  const apply = write({
    path: "/v1/jobs/{job_id}/assist/{suggestion_id}/apply",
    summary: "Apply a suggestion, as a card click",
    tags: ["Jobs"],
    body: ZApplySuggestionRequest,
    ok: { 202: json(ZAcceptedResponse, "Accepted; Office carries it out") },
    params: z.object({ job_id: ZJobId, suggestion_id: ZSuggestionId }),
  });
  route(app, apply, async (c) => {
    const body = c.req.valid("json");
    const { job_id, suggestion_id } = c.req.valid("param");
    return idempotentWrite(core, c, await c.req.text(), (idem) =>
      api.applySuggestion(c.get("principal"), job_id, suggestion_id, body, idem),
    );
  });
  return app;
}
