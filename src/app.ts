import { createRoute, z } from "@hono/zod-openapi";
import type { Hono, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import type { ServerResponse } from "node:http";
import { newId } from "./shared/ids.js";
import { AppError, isAppError } from "./shared/errors.js";
import { renderReference } from "./shared/api-reference.js";
import { createRouter, json, route, withCommonResponses } from "./shared/openapi.js";
import { isStorageError, toStorageError } from "./shared/storage-errors.js";

/**
 * One Hono app: one error handler, one health route, and each module's routes mounted.
 * Module route factories are thin adapters over the module interfaces.
 */
export interface AppDeps {
  /**
   * Route groups in mount order: e.g. ledger, office, gateway, web. Each group carries its own
   * env type (the gateway's principal, say), hence the loose element type.
   */
  // biome-ignore lint/suspicious/noExplicitAny: route groups differ in their env and schema types
  routes: Hono<any, any, any>[];
  health?: () => Record<string, unknown>;
  onUnexpectedError?: (err: unknown, traceId: string | undefined) => void;
  /** A write met a full or unwritable disk (answered 507 / 503); for the operator's log. */
  onStorageError?: (err: unknown) => void;
  /**
   * Runs before every route, in order (request logging, metrics), after Hono's `requestId`,
   * which takes a well-formed `x-trace-id` or mints one (`c.var.requestId`, echoed back).
   */
  middleware?: MiddlewareHandler[];
}

export function createApp(deps: AppDeps) {
  const app = createRouter();
  app.use("*", requestId({ headerName: "x-trace-id", limitLength: 128, generator: () => newId("trc") }));
  // Streams are written straight to the Node response, past Hono's headers: the trace id is put
  // on that response too, so every answer carries it (writeHead merges it in).
  app.use("*", async (c, next) => {
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing && !outgoing.headersSent) outgoing.setHeader("x-trace-id", c.var.requestId);
    await next();
  });
  for (const m of deps.middleware ?? []) app.use("*", m);

  const healthz = createRoute({
    method: "get",
    path: "/healthz",
    summary: "Liveness (and the active planner)",
    tags: ["Operations"],
    responses: { 200: json(z.looseObject({ ok: z.literal(true) }), "Alive") },
  });
  route(app, healthz, (c) => c.json({ ok: true, ...(deps.health?.() ?? {}) }));

  for (const r of deps.routes) app.route("/", r);

  // The API described from the same zod schemas that validate its requests, and a reference
  // page rendered from that document on the server (no script, so the strict CSP holds).
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "A person's token (`llt_…`)",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "session", {
    type: "apiKey",
    in: "cookie",
    name: "ll_session",
    description: "The web app's session cookie; writes also need the `x-logline-csrf` header",
  });
  let generated: ReturnType<typeof app.getOpenAPI31Document> | undefined;
  // Built on first request, once every route is mounted.
  const document = () =>
    (generated ??= withCommonResponses(
      app.getOpenAPI31Document({
        openapi: "3.1.0",
        info: {
          title: "LogLine API",
          version: "1",
          description:
            "The Messenger (gateway), the ledger and Office, over REST and server-sent events. Every write takes an Idempotency-Key; errors are `{error:{code,message,details}}`.",
        },
      }),
    ));
  const openapi = createRoute({
    method: "get",
    path: "/v1/openapi.json",
    summary: "This document (OpenAPI 3.1)",
    tags: ["Operations"],
    responses: { 200: json(z.looseObject({ openapi: z.string() }), "The OpenAPI document") },
  });
  route(app, openapi, (c) => c.json(document()));
  const docs = createRoute({
    method: "get",
    path: "/docs",
    summary: "The API reference, readable",
    tags: ["Operations"],
    responses: { 200: { description: "HTML", content: { "text/html": { schema: z.string() } } } },
  });
  let page: ReturnType<typeof renderReference> | undefined;
  route(app, docs, async (c) => c.html(await (page ??= renderReference(document()))));

  app.notFound((c) => c.json(new AppError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`).toBody(), 404));

  app.onError((err, c) => {
    if (isAppError(err)) {
      // Any 429 says when to come back, wherever it was raised.
      const wait = (err.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
      if (err.status === 429 && typeof wait === "number" && !c.res.headers.get("retry-after"))
        c.header("Retry-After", String(wait));
      return c.json(err.toBody(), err.status as 400);
    }
    // A full or unwritable disk met outside the ledger's commit (a file, a vault or session row):
    // the standard shape with 507 / 503, and the request wrote nothing that stays.
    if (isStorageError(err)) {
      const e = toStorageError(err);
      deps.onStorageError?.(err);
      return c.json(e.toBody(), e.status as 507);
    }
    // Hono raises HTTPException for body limits, bodies that are not JSON, and malformed JSON.
    const status = (err as { status?: number }).status;
    if (status === 413)
      return c.json(new AppError("PAYLOAD_TOO_LARGE", "Request body is larger than 1 MiB").toBody(), 413);
    if (err instanceof HTTPException && status === 415) {
      return c.json(
        new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json", {
          content_type: c.req.header("content-type") ?? null,
        }).toBody(),
        415,
      );
    }
    if (err instanceof HTTPException && status === 400 && /json/i.test(err.message)) {
      return c.json(new AppError("INVALID_JSON", "The request body is not valid JSON").toBody(), 400);
    }
    const traceId = c.get("requestId");
    deps.onUnexpectedError?.(err, traceId);
    return c.json(
      {
        error: {
          code: "INTERNAL",
          message: "Something went wrong on our side.",
          details: traceId ? { trace_id: traceId } : {},
        },
      },
      500,
    );
  });

  return app;
}
