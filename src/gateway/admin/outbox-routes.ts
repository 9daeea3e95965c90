import { z } from "@hono/zod-openapi";
import { ZInboundRefusals, ZMcpStatus, ZOutboxView, ZWriteResult } from "../../../contracts/gateway-responses.js";
import { ADMIN_READ_ERRORS, createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/**
 * The MCP servers' status (admins), refused inbound mails (admins), and the Outbox (admins): every email Office sent or tried to send for the workspace — queued,
 * sent or failed, with the mail server's answer — and Resend, which puts the message's job back
 * to work exactly as the card's Resend button does (so the attempt is audited as mail.send).
 */
export function createOutboxRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { emptyWrite, read } = signedInRoutes(core.tokens);
  const tags = ["Workspace"];
  route(
    app,
    read({
      path: "/v1/outbox",
      summary: "The Outbox (admins)",
      tags,
      schema: ZOutboxView,
      described: "Outgoing email, newest first",
      errors: ADMIN_READ_ERRORS,
    }),
    (c) => c.json(api.outbox(c.get("principal"))),
  );
  route(
    app,
    read({
      path: "/v1/admin/mcp",
      summary: "MCP servers and their tools (admins)",
      tags,
      schema: ZMcpStatus,
      described: "Each server: connected or failing and why, and its tools with their hints",
      errors: ADMIN_READ_ERRORS,
    }),
    (c) => c.json(api.mcpStatus(c.get("principal"))),
  );
  route(
    app,
    read({
      path: "/v1/admin/inbound-mail",
      summary: "Refused inbound mails (admins)",
      description:
        "Mails of the organizer's mailbox (IMAP_URL) that were not recorded as an invitee's answer, newest first: too large, no calendar, a calendar that cannot be read, not an answer, no matching invitation, an attendee not invited, a spoofed sender, a closed job, a duplicate. The workspace's own and those that matched no job; no address and no content.",
      tags,
      schema: ZInboundRefusals,
      described: "Refused mails, newest first",
      query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
      errors: [400, ...ADMIN_READ_ERRORS],
    }),
    (c) => c.json(api.inboundRefusals(c.get("principal"), c.req.valid("query").limit)),
  );
  const resend = emptyWrite({
    method: "post",
    path: "/v1/outbox/{id}/resend",
    summary: "Send a message again now (admins)",
    tags,
    ok: { 202: json(ZWriteResult, "Its job is back at work") },
    params: z.object({ id: z.string().min(1).max(128) }),
  });
  route(app, resend, (c) =>
    idempotentWrite(core, c, "", (idem) => api.resendOutbox(c.get("principal"), c.req.valid("param").id, idem)),
  );
  return app;
}
