import { Hono } from "hono";
import type { GwEnv } from "../auth/middleware.js";
import type { Gateway } from "../gateway.js";
import { createApiRoutes } from "./api.js";
import { createContactRoutes } from "./contacts.js";
import { createFileRoutes } from "./files.js";
import { createLlmRoutes } from "./llm.js";
import { createOutboxRoutes } from "./outbox.js";
import { createPublicRoutes } from "./public.js";

/** Every gateway route: public (workspace, invites, sign-in) first, then the authenticated API. */
export function createGatewayRoutes(gw: Gateway): Hono {
  const app = new Hono<GwEnv>();
  app.route("/", createPublicRoutes(gw.core));
  app.route("/", createApiRoutes(gw));
  app.route("/", createLlmRoutes(gw));
  app.route("/", createContactRoutes(gw.core));
  app.route("/", createFileRoutes(gw.core));
  app.route("/", createOutboxRoutes(gw.core));
  return app as unknown as Hono;
}
