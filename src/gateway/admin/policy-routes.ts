import { createRoute } from "@hono/zod-openapi";
import {
  ZPolicyOverridesRequest,
  ZPolicyOverridesResult,
  ZPolicyPreview,
  ZPolicySettings,
} from "../../../contracts/admin.js";
import {
  createRouter,
  errors,
  IDEMPOTENCY_HEADER,
  json,
  jsonBody,
  route,
  SIGNED_IN,
  WRITE_ERRORS,
} from "../../shared/openapi.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";

/** The Policies admin screen: the pack as it judges this workspace, a preview, and saving overrides. */
export function createAdminPolicyRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = { tags: ["Administration"], security: SIGNED_IN, middleware: authenticate(core.tokens) };

  route(
    app,
    createRoute({
      ...common,
      method: "get",
      path: "/v1/admin/policies",
      summary:
        "Policies of the pack for this workspace: pack mode, mode in force, allowed modes, parameters (owners and admins)",
      responses: { 200: json(ZPolicySettings, "Every policy and tunable parameter"), ...errors(401, 403) },
    }),
    (c) => c.json(api.listPolicies(c.get("principal"))),
  );
  route(
    app,
    createRoute({
      ...common,
      method: "post",
      path: "/v1/admin/policies/preview",
      summary: "What a proposed set of overrides would change (nothing is written)",
      request: { body: jsonBody(ZPolicyOverridesRequest) },
      responses: {
        200: json(ZPolicyPreview, "Each mode and value that would change, from and to"),
        ...errors(400, 401, 403),
      },
    }),
    (c) => c.json(api.previewOverrides(c.get("principal"), c.req.valid("json"))),
  );
  route(
    app,
    createRoute({
      ...common,
      parameters: [IDEMPOTENCY_HEADER],
      method: "put",
      path: "/v1/admin/policies",
      summary: "Set the workspace's policy overrides (the whole set; an empty one is the pack as it is)",
      request: { body: jsonBody(ZPolicyOverridesRequest) },
      responses: { 200: json(ZPolicyOverridesResult, "Recorded as policy.overrides_set"), ...errors(...WRITE_ERRORS) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.saveOverrides(c.get("principal"), body, idem));
    },
  );
  return app;
}
