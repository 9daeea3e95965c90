import type { Context } from "hono";
import type { ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { TStoredEvent } from "../../contracts/events.js";
import { formatCursor, parseCursor, ZTenantId } from "../../contracts/primitives.js";
import { AppError, validationError } from "../shared/errors.js";
import { createSseOut } from "../shared/sse-out.js";
import type { LedgerDoorApi } from "./ledger-api.js";

export interface StreamOptions {
  heartbeatMs: number;
  /** Events the reader may see; others advance the stream silently. */
  visible?: (e: TStoredEvent) => boolean;
}

/**
 * `GET /v1/ledger/stream`: a tenant's tail as SSE. Frames are written to the raw Node response
 * (Hono's streamSSE cost several times the memory and CPU per client here) and coalesced per
 * tick. Resume is exact: the listener is registered before the backlog is read, events it hears
 * while a backlog is still being read (a store that answers later) wait behind it, and every
 * frame goes through one `seq > last` gate, so an event committed while the backlog is sent is
 * neither lost nor sent twice.
 */
export async function streamTenant(ledger: LedgerDoorApi, c: Context, opts: StreamOptions): Promise<Response> {
  const tenant = ZTenantId.safeParse(c.req.query("tenant_id"));
  if (!tenant.success)
    throw validationError(
      tenant.error.issues.map((i) => ({ ...i, path: ["tenant_id"] })),
      "stream request",
    );
  const tenantId = tenant.data;
  const rawCursor = c.req.header("last-event-id") ?? c.req.query("cursor");
  let last = 0;
  if (rawCursor !== undefined) {
    const n = parseCursor(rawCursor);
    if (n === null)
      throw new AppError("VALIDATION_ERROR", "cursor must look like seq:N", {
        field: "cursor",
        value: rawCursor.slice(0, 40),
      });
    last = n;
  }
  const res = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (!res) throw new AppError("SERVICE_UNAVAILABLE", "The event stream needs the Node HTTP server");

  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  res.write("retry: 2000\n\n");

  let heartbeat: NodeJS.Timeout | undefined;
  let unsubscribe = () => {};
  const stop = () => {
    clearInterval(heartbeat);
    unsubscribe();
  };
  // A reader more than 4 MiB behind is cut with a retry hint and resumes from its last frame's id.
  const out = createSseOut(res, stop);
  let pending = "";
  let flushQueued = false;
  const flush = () => {
    flushQueued = false;
    if (pending) out.write(pending);
    pending = "";
  };
  const send = (e: TStoredEvent) => {
    if (out.done) return;
    if (e.tenant_id !== tenantId || e.seq <= last) return;
    last = e.seq;
    if (opts.visible && !opts.visible(e)) return;
    pending += `id: ${formatCursor(e.seq)}\nevent: ledger.event\ndata: ${JSON.stringify(e)}\n\n`;
    if (!flushQueued) {
      flushQueued = true;
      setImmediate(flush);
    }
  };

  let held: TStoredEvent[] | null = [];
  unsubscribe = ledger.subscribe((e) => (held ? held.push(e) : send(e)));
  try {
    await ledger.replay(send, { tenantId, afterTenantSeq: last });
  } catch {
    // The headers are out: a backlog that cannot be read ends the stream, and the client resumes.
    unsubscribe();
    res.destroy();
    return RESPONSE_ALREADY_SENT;
  }
  for (const e of held) send(e);
  held = null;
  flush();
  if (out.done) return RESPONSE_ALREADY_SENT;
  heartbeat = setInterval(() => out.write(": heartbeat\n\n"), opts.heartbeatMs);
  heartbeat.unref();
  res.on("close", stop);
  return RESPONSE_ALREADY_SENT;
}
