import { createRoute, z } from "@hono/zod-openapi";
import { ZProfileUpdateRequest, ZProfileView } from "../../../contracts/people.js";
import { ZEntityId } from "../../../contracts/primitives.js";
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

/** Profiles: mine, and (admins) anyone's display name. */
export function createPeopleRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = { security: SIGNED_IN, middleware: authenticate(core.tokens) };
  route(
    app,
    createRoute({
      ...common,
      tags: ["People"],
      method: "put",
      path: "/v1/me/profile",
      summary: "Change my display name, time zone or language",
      parameters: [IDEMPOTENCY_HEADER],
      request: { body: jsonBody(ZProfileUpdateRequest) },
      responses: { 200: json(ZProfileView, "My profile now"), ...errors(...WRITE_ERRORS) },
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
    createRoute({
      ...common,
      tags: ["People"],
      method: "put",
      path: "/v1/entities/{id}/profile",
      summary: "Change someone's profile: my own, or (admins) anyone's display name",
      parameters: [IDEMPOTENCY_HEADER],
      request: { params: z.object({ id: ZEntityId }), body: jsonBody(ZProfileUpdateRequest) },
      responses: { 200: json(ZProfileView, "Their profile now"), ...errors(...WRITE_ERRORS) },
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
