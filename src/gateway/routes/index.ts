import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRouter } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { Gateway } from "../gateway.js";
import { createApiRoutes } from "./api.js";
import { createContactRoutes } from "./contacts.js";
import { createFileRoutes } from "./files.js";
import { createLlmRoutes } from "./llm.js";
import { createOutboxRoutes } from "./outbox.js";
import { createAgentToolRoutes } from "./agent-tools.js";
import { createAdminRoutes } from "./admin.js";
import { createAdminPolicyRoutes } from "./admin-policies.js";
import { createNotificationRoutes } from "./notifications.js";
import { createMemberRoutes } from "./members.js";
import { createMessageRoutes } from "./messages.js";
import { createThreadRoutes } from "./threads.js";
import { createCallRoutes } from "./calls.js";
import { createPublicRoutes } from "./public.js";
import { createSessionRoutes } from "./sessions.js";
import { createPasskeyRoutes } from "./passkeys.js";
import { createPeopleRoutes } from "./people.js";
import { createAvatarRoutes } from "./avatars.js";
import { createSearchRoutes } from "./search.js";

/** Every gateway route: public (workspace, invites, sign-in) first, then the authenticated API. */
export function createGatewayRoutes(gw: Gateway): OpenAPIHono<GwEnv> {
  const app = createRouter<GwEnv>();
  app.route("/", createPublicRoutes(gw));
  app.route("/", createApiRoutes(gw));
  app.route("/", createLlmRoutes(gw));
  app.route("/", createContactRoutes(gw));
  app.route("/", createFileRoutes(gw));
  app.route("/", createOutboxRoutes(gw));
  app.route("/", createAgentToolRoutes(gw));
  app.route("/", createNotificationRoutes(gw));
  app.route("/", createSessionRoutes(gw));
  app.route("/", createPasskeyRoutes(gw));
  app.route("/", createPeopleRoutes(gw));
  app.route("/", createAvatarRoutes(gw));
  app.route("/", createSearchRoutes(gw));
  app.route("/", createMemberRoutes(gw));
  app.route("/", createMessageRoutes(gw));
  app.route("/", createThreadRoutes(gw));
  app.route("/", createCallRoutes(gw));
  app.route("/", createAdminRoutes(gw));
  app.route("/", createAdminPolicyRoutes(gw));
  return app;
}
