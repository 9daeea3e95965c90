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
      if (!result.success) throw validationError(result.error.issues, result.target === "json" ? "request body" : result.target);
    },
  });
}

/** A JSON request body validated by `schema` (415 for another content type, INVALID_JSON when it does not parse). */
export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) =>
  ({ required: true, content: { "application/json": { schema } }, ...(description ? { description } : {}) }) as const;

export const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } }) as const;

/** The standard error shape, for the statuses a route can answer besides its success. */
export function errors(...statuses: number[]): Record<number, { description: string; content: { "application/json": { schema: typeof ZErrorBody } } }> {
  const out: Record<number, { description: string; content: { "application/json": { schema: typeof ZErrorBody } } }> = {};
  for (const s of statuses) out[s] = { description: ERROR_DESCRIPTIONS[s] ?? "Error", content: { "application/json": { schema: ZErrorBody } } };
  return out;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "Invalid request (VALIDATION_ERROR, INVALID_JSON, INVALID_CURSOR …)",
  401: "No valid token or session",
  403: "Not allowed for this caller",
  404: "Not found (or not visible to this caller)",
  409: "Conflict (an Idempotency-Key reused with another body, a state that moved on)",
  413: "Body too large",
  415: "Not application/json",
  422: "Refused by the policy pack or Office (the code names the rule)",
  429: "Rate limited (Retry-After)",
  503: "Storage unavailable or the server is stopping",
  507: "Disk full; nothing was written",
};

/** The statuses every authenticated write can answer besides its own. */
export const WRITE_ERRORS = [400, 401, 403, 404, 409, 413, 415, 422, 429, 503, 507];
export const READ_ERRORS = [400, 401, 404];

/** An `Idempotency-Key` header, declared (and checked by the write path itself). */
export const IDEMPOTENCY_HEADER = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: true,
  description: "Any string of 1–255 printable characters, unique per intended write; a retry with the same key and body returns the stored response.",
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
  app.openapi(config, handler as never, onInvalid ? (result, c) => (result.success ? undefined : onInvalid(result.error.issues, c)) : undefined);
}

/** The context a route's handler gets: its middleware's variables and its validated inputs. */
export type RouteContext<R extends RouteConfig, E extends Env = Env> = Parameters<RouteHandler<R, E & RouteConfigToEnv<R>>>[0];

/** Bearer token or the web app's session cookie. */
export const SIGNED_IN: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }];
