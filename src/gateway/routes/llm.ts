import { Hono } from "hono";
import { z } from "zod";
import { ZApplySuggestionRequest, ZThreadContextUpdate } from "../../../contracts/llm.js";
import { ZConversationId, ZJobId, ZTraceId } from "../../../contracts/primitives.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import { memberConversation, memberJob } from "../commands/conversations.js";
import { applySuggestion, setThreadContext } from "../commands/llm.js";
import type { Gateway } from "../gateway.js";
import { parseWith, readJson } from "../http-body.js";
import { idempotentWrite } from "./write.js";

const ZSuggestionId = z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/);

/**
 * Office's LLM layer over HTTP: the conversation's ThreadContext (pin/unpin, the ActionSummary's
 * Change) and the Job Drawer's Assist. Thin adapters like every other route: auth, parse with
 * the contract, one call, and Idempotency-Key on every write.
 */
export function createLlmRoutes(gw: Gateway): Hono<GwEnv> {
  const core = gw.core;
  const app = new Hono<GwEnv>();
  const auth = authenticate(core.tokens);

  app.get("/v1/conversations/:id/context", auth, (c) => {
    const p = c.get("principal");
    const id = c.req.param("id");
    memberConversation(core, p, id);
    return c.json(core.office.threadContext(p.tenantId, id));
  });

  for (const what of ["pin", "target"] as const) {
    app.post(`/v1/conversations/:id/context/${what}`, auth, async (c) => {
      const { raw, value } = await readJson(c);
      const body = parseWith(ZThreadContextUpdate, value, `context ${what}`);
      const id = parseWith(ZConversationId, c.req.param("id"), "conversation_id");
      return idempotentWrite(core, c, raw, (idem) => setThreadContext(core, c.get("principal"), id, what, body.job_id, idem));
    });
  }

  app.get("/v1/jobs/:job_id/assist", auth, async (c) => {
    const p = c.get("principal");
    const jobId = parseWith(ZJobId, c.req.param("job_id"), "job_id");
    memberJob(core, p, jobId);
    const trace = c.req.header("x-trace-id");
    return c.json(await core.office.assist(p.tenantId, jobId, trace && ZTraceId.safeParse(trace).success ? trace : core.ids("trc")));
  });

  app.post("/v1/jobs/:job_id/assist/:suggestion_id/apply", auth, async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZApplySuggestionRequest, value, "apply suggestion");
    const jobId = parseWith(ZJobId, c.req.param("job_id"), "job_id");
    const suggestionId = parseWith(ZSuggestionId, c.req.param("suggestion_id"), "suggestion_id");
    return idempotentWrite(core, c, raw, (idem) => applySuggestion(core, c.get("principal"), jobId, suggestionId, body, idem));
  });

  return app;
}
