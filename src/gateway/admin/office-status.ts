import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { requireAdmin } from "../workspaces/workspaces.js";

/** What Office reports to admins: its tool servers, refused inbound mail and the mail outbox. */

/** GET /v1/admin/mcp (admins): the tool servers and their state. */
export function mcpStatus(core: Core, p: Principal) {
  requireAdmin(core, p);
  return { servers: core.office.mcpStatus() };
}

/** GET /v1/admin/inbound-mail (admins): refused inbound mails, newest first, at most `limit`. */
export function inboundRefusals(core: Core, p: Principal, limit: number) {
  requireAdmin(core, p);
  return core.office.inboundRefusals(p.tenantId, limit);
}

/** GET /v1/outbox (admins). */
export function outbox(core: Core, p: Principal) {
  requireAdmin(core, p);
  return core.office.outbox(p.tenantId);
}

/** POST /v1/outbox/:id/resend (admins): the message's job goes back to work; the answer is kept for the key. */
export async function resendOutbox(
  core: Core,
  p: Principal,
  outboxId: string,
  idem: IdemScope,
): Promise<StoredResponse> {
  requireAdmin(core, p);
  const r = await core.office.resendOutbox(p.tenantId, outboxId);
  const response = {
    status: 202,
    body: { accepted: true, outbox_id: outboxId, job_id: r.job_id, created_event_ids: r.emitted_event_ids },
  };
  core.idem.record(idem, response, core.db);
  return response;
}
