import type { ServerResponse } from "node:http";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import { cursorParam } from "../conversations/reads.js";
import { evaluatePresence, presenceFrame } from "../projections/presence.js";
import { renderFrame, toGroup } from "./delta-log.js";

/** Where a stream resumes: the raw cursor, the header or parameter it came in, and the caller's token. */
export interface StreamRequest {
  raw: string | undefined;
  from: "Last-Event-ID" | "cursor";
  tokenHash: string;
}

/**
 * GET /v1/stream on a raw Node response: hello, then the backlog after the cursor (or
 * CURSOR_TOO_OLD), the current presence, and live frames. A bad cursor is refused before
 * anything is written.
 */
export function openStream(core: Core, p: Principal, res: ServerResponse | undefined, req: StreamRequest): void {
  const state = core.tenant(p.tenantId);
  const cursor = cursorParam(req.raw, req.from, state.head) ?? null;
  if (!res) throw new AppError("SERVICE_UNAVAILABLE", "The stream needs a Node HTTP server");
  core.live.open({ tokenHash: req.tokenHash, tenantId: p.tenantId, entityId: p.entityId, res });
  // A person's open pages are their presence: online now, last seen when the last one closes.
  const connected = (by: number) => {
    state.streams.set(p.entityId, Math.max(0, (state.streams.get(p.entityId) ?? 0) + by));
    state.streamSeenMs.set(p.entityId, core.clock.now());
    const d = evaluatePresence(state, p.entityId, core.clock.now());
    if (d) core.hub.publish(p.tenantId, toGroup(null, [d]));
  };
  connected(1);
  res.once("close", () => connected(-1));
  const hello = {
    tenant_id: p.tenantId,
    server_time: core.clock.iso(),
    cursor: `seq:${state.head}`,
    capabilities: { supports_resume: true, supports_heartbeat: true },
  };
  // Presence is state, not history: every connection starts from the current picture.
  // These frames carry no id, so they never move the client's resume cursor.
  let extra = "";
  for (const pr of state.presence.values()) extra += renderFrame("presence.update", presenceFrame(pr));
  core.hub.attach({ tenantId: p.tenantId, entityId: p.entityId, res, head: state.head, cursor, hello, extra });
}
