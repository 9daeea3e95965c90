import { Hono, type MiddlewareHandler } from "hono";
import { AppError, isAppError } from "./shared/errors.js";
import { isStorageError, toStorageError } from "./shared/storage-errors.js";

/**
 * One Hono app: one error handler, one health route, and each module's routes mounted.
 * Module route factories are thin adapters over the module interfaces.
 */
export interface AppDeps {
  /** Route groups in mount order: e.g. ledger, office, gateway, web. */
  routes: Hono[];
  health?: () => Record<string, unknown>;
  onUnexpectedError?: (err: unknown, traceId: string | undefined) => void;
  /** A write met a full or unwritable disk (answered 507 / 503); for the operator's log. */
  onStorageError?: (err: unknown) => void;
  /**
   * Runs before every route, in order (request logging, metrics). The ops observer sets
   * `c.var.trace_id`, which the error handler below reports when the client sent none.
   */
  middleware?: MiddlewareHandler[];
}

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  for (const m of deps.middleware ?? []) app.use("*", m);

  app.get("/healthz", (c) => c.json({ ok: true, ...(deps.health?.() ?? {}) }));

  for (const r of deps.routes) app.route("/", r);

  app.notFound((c) => c.json(new AppError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`).toBody(), 404));

  app.onError((err, c) => {
    if (isAppError(err)) {
      // Any 429 says when to come back, wherever it was raised.
      const wait = (err.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
      if (err.status === 429 && typeof wait === "number" && !c.res.headers.get("retry-after")) c.header("Retry-After", String(wait));
      return c.json(err.toBody(), err.status as 400);
    }
    // A full or unwritable disk met outside the ledger's commit (a file, a vault or session row):
    // the standard shape with 507 / 503, and the request wrote nothing that stays.
    if (isStorageError(err)) {
      const e = toStorageError(err);
      deps.onStorageError?.(err);
      return c.json(e.toBody(), e.status as 507);
    }
    // Hono raises HTTPException for body-limit and similar transport problems.
    const status = (err as { status?: number }).status;
    if (status === 413) return c.json(new AppError("PAYLOAD_TOO_LARGE", "Request body is larger than 1 MiB").toBody(), 413);
    const traceId = c.req.header("x-trace-id") ?? ((c.var as Record<string, unknown>).trace_id as string | undefined);
    deps.onUnexpectedError?.(err, traceId);
    return c.json({ error: { code: "INTERNAL", message: "Something went wrong on our side.", details: traceId ? { trace_id: traceId } : {} } }, 500);
  });

  return app;
}
