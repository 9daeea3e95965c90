import { createRoute, z } from "@hono/zod-openapi";
import {
  errors,
  IDEMPOTENCY_HEADER,
  json,
  jsonBody,
  READ_ERRORS,
  SIGNED_IN,
  WRITE_ERRORS,
} from "../../shared/openapi.js";
import { authenticate } from "../auth/middleware.js";
import type { TokenStore } from "../auth/token-store.js";

/** A route without path (or query) parameters. */
export const noParams = z.object({});

/**
 * The route descriptions the signed-in REST surface is made of: `write` (a JSON body, an
 * Idempotency-Key, the write errors) and `read` (GET, the read errors), both behind `auth`.
 */
export function signedInRoutes(tokens: TokenStore) {
  const auth = authenticate(tokens);
  const security = SIGNED_IN;
  const write = <T extends z.ZodType, P extends z.ZodObject = typeof noParams>(
    path: string,
    method: "post" | "put",
    body: T,
    summary: string,
    tags: string[],
    ok: Record<number, ReturnType<typeof json>>,
    params?: P,
  ) =>
    createRoute({
      method,
      path,
      summary,
      tags,
      security,
      middleware: [auth] as const,
      request: { body: jsonBody(body), params: params ?? (noParams as P) },
      responses: { ...ok, ...errors(...WRITE_ERRORS) },
      parameters: [IDEMPOTENCY_HEADER],
    });
  const read = <P extends z.ZodObject = typeof noParams, Q extends z.ZodObject = typeof noParams>(
    path: string,
    summary: string,
    tags: string[],
    schema: z.ZodType,
    params?: P,
    query?: Q,
  ) =>
    createRoute({
      method: "get",
      path,
      summary,
      tags,
      security,
      middleware: [auth] as const,
      request: { params: params ?? (noParams as P), query: query ?? (noParams as Q) },
      responses: { 200: json(schema, summary), ...errors(...READ_ERRORS) },
    });
  return { auth, security, write, read };
}
