import { Hono, type Context } from "hono";
import type { TStoredEvent } from "../../contracts/events.js";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { ZAppendRequest } from "../../contracts/ledger.js";
import { ZTenantId } from "../../contracts/primitives.js";
import { AppError, validationError } from "../shared/errors.js";
import type { LedgerApi } from "./ledger-api.js";
import { loopbackOnly, MAX_BODY_BYTES, readJsonBody } from "./http-guards.js";
import { streamTenant } from "./sse.js";

export interface LedgerRoutesOptions {
  /** Default true: answer loopback clients only (403 otherwise) until auth sits in front. */
  loopbackOnly?: boolean;
  /** SSE heartbeat comment interval; 15 s by default. */
  heartbeatMs?: number;
  /**
   * Which events the caller may read (query pages and stream frames), decided per request by
   * whoever sits in front (the gateway's membership rule); undefined reads everything.
   */
  readFilter?: (c: Context) => ((e: TStoredEvent) => boolean) | undefined;
}

const ZTenantQuery = z.strictObject({ tenant_id: ZTenantId });

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw validationError(r.error.issues, what);
  return r.data;
}

/** Thin HTTP adapters over LedgerApi under /v1/ledger. */
export function createLedgerRoutes(ledger: LedgerApi, opts: LedgerRoutesOptions = {}): Hono {
  const app = new Hono();
  if (opts.loopbackOnly ?? true) app.use("/v1/ledger/*", loopbackOnly());

  app.post(
    "/v1/ledger/append",
    // Counts the bytes as they stream in, so a chunked body without Content-Length is capped too.
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json(new AppError("PAYLOAD_TOO_LARGE", "Request body is larger than 1 MiB").toBody(), 413),
    }),
    async (c) => {
      const req = parse(ZAppendRequest, await readJsonBody(c), "append request");
      return c.json(await ledger.append(req));
    },
  );

  app.get("/v1/ledger/query", (c) => {
    const page = ledger.query(c.req.query() as never);
    const visible = opts.readFilter?.(c);
    // The page keeps its cursor: a reader who may not see some events still pages past them.
    return c.json(visible ? { ...page, events: page.events.filter((e) => visible(e as TStoredEvent)) } : page);
  });

  app.get("/v1/ledger/stream", (c) => {
    const visible = opts.readFilter?.(c);
    return streamTenant(ledger, c, { heartbeatMs: opts.heartbeatMs ?? 15_000, ...(visible ? { visible } : {}) });
  });

  app.get("/v1/ledger/keys", (c) => c.json(ledger.keys()));

  app.get("/v1/ledger/checkpoint", (c) => {
    const { tenant_id } = parse(ZTenantQuery, c.req.query(), "checkpoint request");
    const cp = ledger.checkpoint(tenant_id);
    if (!cp) throw new AppError("NOT_FOUND", `No checkpoint yet for tenant ${tenant_id}`);
    return c.json(cp);
  });

  app.get("/v1/ledger/verify", (c) => {
    const { tenant_id } = parse(ZTenantQuery, c.req.query(), "verify request");
    return c.json(ledger.verify(tenant_id));
  });

  return app;
}
