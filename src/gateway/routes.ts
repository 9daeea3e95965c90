import type { OpenAPIHono } from "@hono/zod-openapi";
import { createRouter } from "../shared/openapi.js";
import type { GwEnv } from "./auth/middleware.js";
import type { GatewayInside } from "./gateway-api.js";
import { createConversationRoutes } from "./conversations/routes.js";
import { createWorkspaceRoutes } from "./workspaces/routes.js";
import { createDirectoryRoutes } from "./people/directory-routes.js";
import { createJobRoutes } from "./jobs/routes.js";
import { createStreamRoutes } from "./stream/routes.js";
import { createContactRoutes } from "./people/contact-routes.js";
import { createFileRoutes } from "./conversations/file-routes.js";
import { createLlmRoutes } from "./jobs/assist-routes.js";
import { createOutboxRoutes } from "./admin/outbox-routes.js";
import { createAgentToolRoutes } from "./jobs/agent-tool-routes.js";
import { createAdminRoutes } from "./admin/routes.js";
import { createAdminPolicyRoutes } from "./admin/policy-routes.js";
import { createNotificationRoutes } from "./notify/routes.js";
import { createMemberRoutes } from "./conversations/member-routes.js";
import { createChannelRoutes } from "./conversations/channel-routes.js";
import { createScheduledRoutes } from "./scheduled/routes.js";
import { createMessageRoutes } from "./conversations/message-routes.js";
import { createThreadRoutes } from "./conversations/thread-routes.js";
import { createCallRoutes } from "./calls/routes.js";
import { createPublicRoutes } from "./workspaces/public-routes.js";
import { createSessionRoutes } from "./sessions/routes.js";
import { createPasskeyRoutes } from "./passkeys/routes.js";
import { createPeopleRoutes } from "./people/routes.js";
import { createAvatarRoutes } from "./people/avatar-routes.js";
import { createSearchRoutes } from "./search/routes.js";

/**
 * Every gateway route, feature by feature: public (workspace, invites, sign-in) first, then the
 * authenticated API. Built once when the door's `routes()` is called; a request goes straight to
 * the feature's handler and never through here.
 */
export function createGatewayRoutes(gw: GatewayInside): OpenAPIHono<GwEnv> {
  const app = createRouter<GwEnv>();
  // A token, link or invite made by a request is in the database before its answer leaves, so
  // the next request may go to any process (on SQLite this is at once).
  app.use("*", async (_c, next) => {
    await next();
    await gw.core.authRows.settled();
  });
  app.route("/", createPublicRoutes(gw));
  app.route("/", createWorkspaceRoutes(gw));
  app.route("/", createDirectoryRoutes(gw));
  app.route("/", createConversationRoutes(gw));
  app.route("/", createJobRoutes(gw));
  app.route("/", createStreamRoutes(gw));
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
  app.route("/", createChannelRoutes(gw));
  app.route("/", createScheduledRoutes(gw));
  app.route("/", createMessageRoutes(gw));
  app.route("/", createThreadRoutes(gw));
  app.route("/", createCallRoutes(gw));
  app.route("/", createAdminRoutes(gw));
  app.route("/", createAdminPolicyRoutes(gw));
  return app;
}
