import { z } from "@hono/zod-openapi";
import { ZProfileUpdateRequest, ZProfileView } from "../../../contracts/people.js";
import { ZEntityId } from "../../../contracts/primitives.js";
import { createRouter, json, route } from "../../shared/openapi.js";
import type { GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";
import { signedInRoutes } from "../http/signed-in-routes.js";

/** Profiles: mine, and (admins) anyone's display name. */
export function createPeopleRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const { write } = signedInRoutes(core.tokens);
  route(
    app,
    write({
      method: "put",
      path: "/v1/me/profile",
      summary: "Change my display name, time zone or language",
      tags: ["People"],
      body: ZProfileUpdateRequest,
      ok: { 200: json(ZProfileView, "My profile now") },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.updateProfile(c.get("principal"), "me", body, idem),
      );
    },
  );
  route(
    app,
    write({
      method: "put",
      path: "/v1/entities/{id}/profile",
      summary: "Change someone's profile: my own, or (admins) anyone's display name",
      tags: ["People"],
      body: ZProfileUpdateRequest,
      ok: { 200: json(ZProfileView, "Their profile now") },
      params: z.object({ id: ZEntityId }),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.updateProfile(c.get("principal"), c.req.valid("param").id, body, idem),
      );
    },
  );
  return app;
}
