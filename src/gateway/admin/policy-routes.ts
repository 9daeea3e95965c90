import {
  ZPolicyOverridesRequest,
  ZPolicyOverridesResult,
  ZPolicyPreview,
  ZPolicySettings,
} from "../../../contracts/admin.js";
import { ADMIN_READ_ERRORS, createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/** The Policies admin screen: the pack as it judges this workspace, a preview, and saving overrides. */
export function createAdminPolicyRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write, read, ask } = signedInRoutes(core.tokens);
  const tags = ["Administration"];

  route(
    app,
    read({
      path: "/v1/admin/policies",
      summary:
        "Policies of the pack for this workspace: pack mode, mode in force, allowed modes, parameters (owners and admins)",
      tags,
      schema: ZPolicySettings,
      described: "Every policy and tunable parameter",
      errors: ADMIN_READ_ERRORS,
    }),
    (c) => c.json(api.listPolicies(c.get("principal"))),
  );
  route(
    app,
    ask({
      path: "/v1/admin/policies/preview",
      summary: "What a proposed set of overrides would change (nothing is written)",
      tags,
      body: ZPolicyOverridesRequest,
      schema: ZPolicyPreview,
      described: "Each mode and value that would change, from and to",
      errors: [400, ...ADMIN_READ_ERRORS],
    }),
    (c) => c.json(api.previewOverrides(c.get("principal"), c.req.valid("json"))),
  );
  route(
    app,
    write({
      method: "put",
      path: "/v1/admin/policies",
      summary: "Set the workspace's policy overrides (the whole set; an empty one is the pack as it is)",
      tags,
      body: ZPolicyOverridesRequest,
      ok: { 200: json(ZPolicyOverridesResult, "Recorded as policy.overrides_set") },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.saveOverrides(c.get("principal"), body, idem));
    },
  );
  return app;
}
