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

/** What every signed-in route states: where it is, what it does, its group in the document. */
interface RouteSpec<P extends z.ZodObject> {
  path: string;
  summary: string;
  tags: string[];
  /** A longer explanation than the summary, when one is needed. */
  description?: string;
  params?: P;
}

/** A write's success answers, by status (200, 201 or 202 with its body). */
type Answers = Record<number, ReturnType<typeof json>>;

/**
 * The route descriptions the signed-in REST surface is made of, all behind `auth`:
 * - `write`: a JSON body, an Idempotency-Key, the write errors (POST unless told);
 * - `emptyWrite`: the same without a body (DELETE, or a POST that names its action in the path);
 * - `read`: GET, the read errors (or the ones given), its 200 described by its summary unless told;
 * - `ask`: a POST with a JSON body that writes nothing, so it takes no Idempotency-Key.
 */
export function signedInRoutes(tokens: TokenStore) {
  const auth = authenticate(tokens);
  const security = SIGNED_IN;
  const common = <P extends z.ZodObject>(spec: RouteSpec<P>) => ({
    path: spec.path,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    security,
    middleware: auth,
  });
  const write = <T extends z.ZodType, P extends z.ZodObject = typeof noParams>(
    spec: RouteSpec<P> & { method?: "post" | "put" | "patch" | "delete"; body: T; ok: Answers },
  ) =>
    createRoute({
      method: spec.method ?? "post",
      ...common(spec),
      request: { body: jsonBody(spec.body), params: spec.params ?? (noParams as P) },
      responses: { ...spec.ok, ...errors(...WRITE_ERRORS) },
      parameters: [IDEMPOTENCY_HEADER],
    });
  const emptyWrite = <P extends z.ZodObject = typeof noParams>(
    spec: RouteSpec<P> & { method: "post" | "delete"; ok: Answers },
  ) =>
    createRoute({
      method: spec.method,
      ...common(spec),
      request: { params: spec.params ?? (noParams as P) },
      responses: { ...spec.ok, ...errors(...WRITE_ERRORS) },
      parameters: [IDEMPOTENCY_HEADER],
    });
  const read = <P extends z.ZodObject = typeof noParams, Q extends z.ZodObject = typeof noParams>(
    spec: RouteSpec<P> & { schema: z.ZodType; described?: string; query?: Q; errors?: readonly number[] },
  ) =>
    createRoute({
      method: "get",
      ...common(spec),
      request: { params: spec.params ?? (noParams as P), query: spec.query ?? (noParams as Q) },
      responses: {
        200: json(spec.schema, spec.described ?? spec.summary),
        ...errors(...(spec.errors ?? READ_ERRORS)),
      },
    });
  const ask = <T extends z.ZodType, P extends z.ZodObject = typeof noParams>(
    spec: RouteSpec<P> & { body: T; schema: z.ZodType; described: string; errors?: readonly number[] },
  ) =>
    createRoute({
      method: "post",
      ...common(spec),
      request: { body: jsonBody(spec.body), params: spec.params ?? (noParams as P) },
      responses: { 200: json(spec.schema, spec.described), ...errors(...(spec.errors ?? READ_ERRORS)) },
    });
  return { auth, security, write, emptyWrite, read, ask };
}
