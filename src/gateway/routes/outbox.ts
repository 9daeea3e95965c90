import { createRoute, z } from "@hono/zod-openapi";
import { ZMcpStatus, ZOutboxView, ZWriteResult } from "../../../contracts/gateway-responses.js";
import { createRouter, errors, IDEMPOTENCY_HEADER, json, route, SIGNED_IN, WRITE_ERRORS } from "../../shared/openapi.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import type { Gateway } from "../gateway.js";
import { idempotentWrite } from "./write.js";

/**
 * The MCP servers' status (admins), and the Outbox (admins): every email Office sent or tried to send for the workspace — queued,
 * sent or failed, with the mail server's answer — and Resend, which puts the message's job back
 * to work exactly as the card's Resend button does (so the attempt is audited as mail.send).
 */
export function createOutboxRoutes(gw: Gateway) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = { tags: ["Workspace"], security: SIGNED_IN, middleware: authenticate(core.tokens) };
  route(
    app,
    createRoute({
      ...common,
      method: "get",
      path: "/v1/outbox",
      summary: "The Outbox (admins)",
      responses: { 200: json(ZOutboxView, "Outgoing email, newest first"), ...errors(401, 403) },
    }),
    (c) => c.json(api.outbox(c.get("principal"))),
  );
  route(
    app,
    createRoute({
      ...common,
      method: "get",
      path: "/v1/admin/mcp",
      summary: "MCP servers and their tools (admins)",
      responses: { 200: json(ZMcpStatus, "Each server: connected or failing and why, and its tools with their hints"), ...errors(401, 403) },
    }),
    (c) => c.json(api.mcpStatus(c.get("principal"))),
  );
  const resend = createRoute({
    ...common,
    method: "post",
    path: "/v1/outbox/{id}/resend",
    summary: "Send a message again now (admins)",
    parameters: [IDEMPOTENCY_HEADER],
    request: { params: z.object({ id: z.string().min(1).max(128) }) },
    responses: { 202: json(ZWriteResult, "Its job is back at work"), ...errors(...WRITE_ERRORS) },
  });
  route(app, resend, (c) => idempotentWrite(core, c, "", (idem) => api.resendOutbox(c.get("principal"), c.req.valid("param").id, idem)));
  return app;
}
