import { createRoute, z } from "@hono/zod-openapi";
import {
  ZHandOverRequest,
  ZHandOverResponse,
  ZProfileUpdateRequest,
  ZProfileView,
  ZWhyResponse,
} from "../../../contracts/people.js";
import { ZEntityId, ZJobId } from "../../../contracts/primitives.js";
import {
  createRouter,
  errors,
  IDEMPOTENCY_HEADER,
  json,
  jsonBody,
  READ_ERRORS,
  route,
  SIGNED_IN,
  WRITE_ERRORS,
} from "../../shared/openapi.js";
import { authenticate, type GwEnv } from "../auth/middleware.js";
import type { GatewayInside } from "../inside.js";
import { idempotentWrite } from "../http/idempotent-write.js";

/** Profiles, handing a job over, and a job's "Why?". */
export function createPeopleRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const common = { security: SIGNED_IN, middleware: authenticate(core.tokens) };
  const jobParams = z.object({ job_id: ZJobId });
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
  route(
    app,
    createRoute({
      ...common,
      tags: ["Jobs"],
      method: "post",
      path: "/v1/jobs/{job_id}/hand-over",
      summary: "Hand a job over to a person of its conversation (who asked for it, approvers, admins, its holder)",
      parameters: [IDEMPOTENCY_HEADER],
      request: { params: jobParams, body: jsonBody(ZHandOverRequest) },
      responses: { 200: json(ZHandOverResponse, "Handed over"), ...errors(...WRITE_ERRORS) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.handOver(c.get("principal"), c.req.valid("param").job_id, body, idem),
      );
    },
  );
  route(
    app,
    createRoute({
      ...common,
      tags: ["Jobs"],
      method: "get",
      path: "/v1/jobs/{job_id}/why",
      summary: "Why the job did what it did: the message that started it, approvals, policy decisions and tool results",
      request: { params: jobParams },
      responses: { 200: json(ZWhyResponse, "The job's causal chain"), ...errors(...READ_ERRORS) },
    }),
    async (c) => c.json(await api.why(c.get("principal"), c.req.valid("param").job_id)),
  );
  return app;
}
