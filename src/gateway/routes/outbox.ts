import { Hono } from "hono";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import { requireAdmin } from "../commands/workspaces.js";
import type { Core } from "../core.js";
import { idempotentWrite } from "./write.js";

/**
 * The Outbox (admins): every email Office sent or tried to send for the workspace — queued,
 * sent or failed, with the mail server's answer — and Resend, which puts the message's job back
 * to work exactly as the card's Resend button does (so the attempt is audited as mail.send).
 */
export function createOutboxRoutes(core: Core): Hono<GwEnv> {
  const app = new Hono<GwEnv>();
  const auth = authenticate(core.tokens);
  app.get("/v1/outbox", auth, (c) => {
    const p = c.get("principal");
    requireAdmin(core, p);
    return c.json(core.office.outbox(p.tenantId));
  });
  app.post("/v1/outbox/:id/resend", auth, async (c) => {
    const p = c.get("principal");
    requireAdmin(core, p);
    const id = c.req.param("id");
    return idempotentWrite(core, c, "", async (idem) => {
      const r = await core.office.resendOutbox(p.tenantId, id);
      const response = { status: 202, body: { accepted: true, outbox_id: id, job_id: r.job_id, created_event_ids: r.emitted_event_ids } };
      core.idem.record(idem, response);
      return response;
    });
  });
  return app;
}
