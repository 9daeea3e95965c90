import { createRoute, z } from "@hono/zod-openapi";
import {
  ZCreateAgentRequest,
  ZCreateAgentResponse,
  ZCreateInviteRequest,
  ZCreateInviteResponse,
  ZSetMyEmailRequest,
} from "../../../contracts/gateway.js";
import { ZWriteResult } from "../../../contracts/gateway-responses.js";
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

const noParams = z.object({});

/** Inviting people, adding agents and my own email: thin adapters over `GatewayApi`. */
export function createWorkspaceRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const auth = authenticate(core.tokens);
  const security = SIGNED_IN;
  const write = <T extends z.ZodType, P extends z.ZodObject = typeof noParams>(
    path: string,
    method: "post" | "put",
    body: T,
    summary: string,
    tags: string[],
    ok: Record<number, ReturnType<typeof json>>,
    params?: P,
  ) =>
    createRoute({
      method,
      path,
      summary,
      tags,
      security,
      middleware: [auth] as const,
      request: { body: jsonBody(body), params: params ?? (noParams as P) },
      responses: { ...ok, ...errors(...WRITE_ERRORS) },
      parameters: [IDEMPOTENCY_HEADER],
    });

  route(
    app,
    write("/v1/invites", "post", ZCreateInviteRequest, "Invite a person (admins); the link works once", ["Workspace"], {
      201: json(ZCreateInviteResponse, "The invite link"),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.createInvite(c.get("principal"), body, idem));
    },
  );

  route(
    app,
    write("/v1/agents", "post", ZCreateAgentRequest, "Add an agent coworker (admins)", ["Workspace"], {
      201: json(ZCreateAgentResponse, "The new agent"),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.createAgent(c.get("principal"), body, idem));
    },
  );

  route(
    app,
    write("/v1/me/email", "put", ZSetMyEmailRequest, "Set (or clear) my own email, kept in the vault", ["Session"], {
      200: json(ZWriteResult, "Saved"),
    }),
    async (c) => {
      const body = c.req.valid("json");
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.setMyEmail(c.get("principal"), body.email, idem),
      );
    },
  );

  return app;
}
