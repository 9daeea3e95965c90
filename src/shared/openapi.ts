import { OpenAPIHono, type RouteConfig, type RouteConfigToEnv, type RouteHandler } from "@hono/zod-openapi";
import type { Context, Env } from "hono";
import type { z } from "zod";
import { ZErrorBody } from "../../contracts/errors.js";
import { validationError } from "./errors.js";

/**
 * Every module's routes are declared with `@hono/zod-openapi`: the contract schema that
 * validates a request is the one the OpenAPI document describes, so the two cannot drift. A
 * request that fails validation gets the standard error shape (VALIDATION_ERROR naming the
 * field), like every other error.
 */
export function createRouter<E extends Env = Env>(): OpenAPIHono<E> {
  return new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success)
        throw validationError(result.error.issues, result.target === "json" ? "request body" : result.target);
    },
  });
}

/** A JSON request body validated by `schema` (415 for another content type, INVALID_JSON when it does not parse). */
export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) =>
  ({ required: true, content: { "application/json": { schema } }, ...(description ? { description } : {}) }) as const;

export const json = <T extends z.ZodType>(schema: T, description: string) =>
  ({ description, content: { "application/json": { schema } } }) as const;

/** The standard error shape, for the statuses a route can answer besides its success. */
export function errors(
  ...statuses: number[]
): Record<number, { description: string; content: { "application/json": { schema: typeof ZErrorBody } } }> {
  const out: Record<number, { description: string; content: { "application/json": { schema: typeof ZErrorBody } } }> =
    {};
  for (const s of statuses)
    out[s] = { description: ERROR_DESCRIPTIONS[s] ?? "Error", content: { "application/json": { schema: ZErrorBody } } };
  return out;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request (VALIDATION_ERROR, INVALID_JSON, INVALID_INPUT for text that is not well-formed …)",
  401: "No valid token or session",
  403: "Not allowed for this caller",
  404: "Not found (or not visible to this caller)",
  409: "Conflict (an Idempotency-Key reused with another body, a state that moved on)",
  413: "Body too large",
  415: "Not application/json",
  422: "Refused by the policy pack or Office (the code names the rule)",
  429: "Rate limited (Retry-After)",
  503: "Storage unavailable, or the server is restarting (Retry-After)",
  507: "Disk full; nothing was written",
};

type DocResponse = { description: string; content?: Record<string, unknown>; headers?: Record<string, unknown> };
type DocOperation = { responses?: Record<string, DocResponse>; requestBody?: unknown; security?: unknown[] };
type Doc = {
  paths?: Record<string, Record<string, DocOperation | unknown>>;
  components?: Record<string, Record<string, unknown> | undefined>;
};

const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);

/**
 * The statuses that middleware every request passes through can answer, added to every
 * operation of the document in this one place (routes list only their own):
 * - any request: 400 (a path or query text that is not well-formed, has control characters or
 *   is too long: INVALID_INPUT) and 503 (the server is restarting);
 * - a write: 413 (the body is too large), 400 (a body with text that is not well-formed), 429
 *   (rate limits), and 415 when it takes a body (another content type);
 * - a signed-in route: 401 (no valid token or session) and 403 (a query `tenant_id` or
 *   `actor_entity_id` naming someone else; a cookie write without the CSRF header).
 * Every response carries `x-trace-id`. Each operation lists its fields in one order (summary,
 * description, tags, security, parameters, requestBody, responses, then any other), however its
 * route spelled them.
 */
export function withCommonResponses<D extends object>(doc: D): D {
  const d = doc as Doc;
  d.components = { ...d.components, headers: { ...d.components?.headers, TraceId: TRACE_ID_HEADER } };
  const traceRef = { $ref: "#/components/headers/TraceId" };
  for (const [path, item] of Object.entries(d.paths ?? {})) {
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const op = orderFields(raw as DocOperation);
      item[method] = op;
      const responses = (op.responses ??= {});
      const add = (status: number) => {
        responses[status] ??= errors(status)[status] as DocResponse;
      };
      add(400);
      if (path !== "/healthz") add(503);
      if (method !== "get" && method !== "head") {
        for (const s of [413, 429]) add(s);
        if (op.requestBody) add(415);
      }
      if (op.security?.length) for (const s of [401, 403]) add(s);
      for (const r of Object.values(responses)) r.headers = { ...r.headers, "x-trace-id": traceRef };
    }
  }
  return doc;
}

const OPERATION_FIELDS = ["summary", "description", "tags", "security", "parameters", "requestBody", "responses"];

function orderFields(op: DocOperation): DocOperation {
  const out: Record<string, unknown> = {};
  for (const k of OPERATION_FIELDS) if (k in op) out[k] = op[k as keyof DocOperation];
  return Object.assign(out, op) as DocOperation;
}

const TRACE_ID_HEADER = {
  description: "The request's trace id: the `x-trace-id` sent, when well-formed (1–128 characters), else a new one",
  required: true,
  schema: { type: "string" },
};

/** The statuses every authenticated write can answer besides its own. */
export const WRITE_ERRORS = [400, 401, 403, 404, 409, 413, 415, 422, 429, 503, 507];
export const READ_ERRORS = [400, 401, 404];
/** Reads of the Admin screens: a signed-in caller who is not an owner or admin gets 403. */
export const ADMIN_READ_ERRORS = [401, 403];

/** An `Idempotency-Key` header, declared (and checked by the write path itself). */
export const IDEMPOTENCY_HEADER = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: true,
  description:
    "Any string of 1–255 printable characters, unique per intended write; a retry with the same key and body returns the stored response.",
  schema: { type: "string" as const, minLength: 1, maxLength: 255 },
};

/**
 * Registers a route whose handler answers with a plain `Response` (the idempotent write path,
 * files, streams). The typed-response check of `app.openapi` is for handlers that build their
 * body inline; here the body comes from the command and the document is checked against the
 * served routes by test/http/openapi.test.ts instead.
 */
export function route<E extends Env, R extends RouteConfig>(
  app: OpenAPIHono<E>,
  config: R,
  handler: (c: RouteContext<R, E>) => Response | Promise<Response>,
  /** Instead of the standard VALIDATION_ERROR, for a route with its own refusal shape. */
  onInvalid?: (issues: z.core.$ZodIssue[], c: Context) => Response,
): void {
  app.openapi(
    config,
    handler as never,
    onInvalid ? (result, c) => (result.success ? undefined : onInvalid(result.error.issues, c)) : undefined,
  );
}

/** The context a route's handler gets: its middleware's variables and its validated inputs. */
export type RouteContext<R extends RouteConfig, E extends Env = Env> = Parameters<
  RouteHandler<R, E & RouteConfigToEnv<R>>
>[0];

/** Bearer token or the web app's session cookie. */
export const SIGNED_IN: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }];
