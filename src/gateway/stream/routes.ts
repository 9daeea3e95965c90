import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, errors, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/**
 * GET /v1/stream. A browser EventSource cannot send headers, so the session cookie authenticates
 * it; the resume cursor comes from Last-Event-ID (automatic reconnects) or ?cursor= (a fresh page).
 */
export function createStreamRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  // An event stream, not JSON: its own response, behind the same sign-in as every route.
  const { auth, security } = signedInRoutes(core.tokens);
  const stream = createRoute({
    method: "get",
    path: "/v1/stream",
    summary:
      "My live updates (server-sent events: hello, timeline.append, conversation.update, job.update, presence.update, artifact.added, heartbeat, error)",
    tags: ["Live"],
    security,
    middleware: [auth] as const,
    request: { query: z.object({ cursor: z.string().optional() }) },
    responses: {
      200: {
        description: "An event stream; resume with Last-Event-ID",
        content: { "text/event-stream": { schema: z.string() } },
      },
      ...errors(400, 401, 404, 429),
    },
  });
  route(app, stream, (c) => {
    const lastEventId = c.req.header("last-event-id");
    api.stream(c.get("principal"), c.env?.outgoing, {
      raw: lastEventId ?? c.req.query("cursor"),
      from: lastEventId !== undefined ? "Last-Event-ID" : "cursor",
      tokenHash: c.get("tokenHash"),
    });
    return RESPONSE_ALREADY_SENT;
  });
  return app;
}
