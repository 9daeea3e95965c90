import { createRoute, z } from "@hono/zod-openapi";
import {
  ZCreateSignInLinkRequest,
  ZEmailSignInLinkAccepted,
  ZEmailSignInLinkRequest,
  ZRedeemSignInLinkRequest,
  ZRedeemSignInLinkResponse,
  ZSessionEnded,
  ZSessionList,
  ZSignInLinkCreated,
  ZSignInOptions,
} from "../../../contracts/sessions.js";
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
import type { GatewayInside } from "../gateway-api.js";
import { deviceLabel } from "./index.js";
import { idempotentWrite, refuseOverLimit } from "../http/idempotent-write.js";

const ANON_WRITE_ERRORS = [400, 404, 409, 410, 413, 415, 429, 503];

/**
 * Signing in anywhere: one-time links for another device (signed in) or by email (anyone),
 * redeeming a link (anyone holding it), and my sessions. Anonymous writes need an unguessable
 * Idempotency-Key, like the other anonymous writes.
 */
export function createSessionRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const auth = authenticate(core.tokens);
  const signedIn = { security: SIGNED_IN, middleware: auth };

  route(
    app,
    createRoute({
      method: "get",
      path: "/v1/sign-in-options",
      summary: "What the sign-in page can offer (email links when mail is configured)",
      tags: ["Session"],
      responses: { 200: json(ZSignInOptions, "The options") },
    }),
    (c) => c.json(api.signInOptions()),
  );

  route(
    app,
    createRoute({
      ...signedIn,
      method: "post",
      path: "/v1/sign-in-links",
      summary: "A one-time link and QR code that sign me in on another device",
      tags: ["Session"],
      parameters: [IDEMPOTENCY_HEADER],
      request: { body: jsonBody(ZCreateSignInLinkRequest) },
      responses: {
        201: json(ZSignInLinkCreated, "The link, its QR code and when it expires"),
        ...errors(...WRITE_ERRORS),
      },
    }),
    async (c) => idempotentWrite(core, c, await c.req.text(), (idem) => api.createSignInLink(c.get("principal"), idem)),
  );

  route(
    app,
    createRoute({
      method: "post",
      path: "/v1/sign-in-links/redeem",
      summary: "Sign in with a one-time link: a new session for its person (it works once)",
      tags: ["Session"],
      parameters: [
        {
          ...IDEMPOTENCY_HEADER,
          description: "A random value of at least 16 characters (anonymous writes share one scope)",
        },
      ],
      request: { body: jsonBody(ZRedeemSignInLinkRequest) },
      responses: {
        201: json(ZRedeemSignInLinkResponse, "Signed in: the new session and its token"),
        ...errors(...ANON_WRITE_ERRORS),
      },
    }),
    async (c) => {
      const { code } = c.req.valid("json");
      const device = deviceLabel(c.req.header("user-agent"));
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.redeemSignInLink(code, device, idem), {
        anonymous: true,
      });
    },
  );

  route(
    app,
    createRoute({
      method: "post",
      path: "/v1/sign-in-links/email",
      summary: "Email me a sign-in link (the same answer whether or not the address is known)",
      tags: ["Session"],
      parameters: [
        {
          ...IDEMPOTENCY_HEADER,
          description: "A random value of at least 16 characters (anonymous writes share one scope)",
        },
      ],
      request: { body: jsonBody(ZEmailSignInLinkRequest) },
      responses: { 202: json(ZEmailSignInLinkAccepted, "Accepted"), ...errors(...ANON_WRITE_ERRORS) },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const client = core.clientAddress(c);
      return idempotentWrite(
        core,
        c,
        await c.req.text(),
        (idem) => api.emailSignInLink(body, client, idem, (s) => refuseOverLimit(c, s)),
        { anonymous: true },
      );
    },
  );

  route(
    app,
    createRoute({
      ...signedIn,
      method: "get",
      path: "/v1/sessions",
      summary: "My sessions (device, started, last seen), this one marked",
      tags: ["Session"],
      responses: { 200: json(ZSessionList, "My sessions"), ...errors(...READ_ERRORS) },
    }),
    async (c) => c.json(await api.listSessions(c.get("principal"), c.get("tokenHash"))),
  );

  route(
    app,
    createRoute({
      ...signedIn,
      method: "delete",
      path: "/v1/sessions/{session_id}",
      summary: "End one of my sessions: its token fails at once and its streams close",
      tags: ["Session"],
      parameters: [IDEMPOTENCY_HEADER],
      request: {
        params: z.object({
          session_id: z.string().regex(/^ses_[0-9a-f]{24}$/, "must be a session id (ses_ and 24 hex digits)"),
        }),
      },
      responses: { 200: json(ZSessionEnded, "Ended"), ...errors(...WRITE_ERRORS) },
    }),
    async (c) =>
      idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.endSession(c.get("principal"), c.req.valid("param").session_id, c.get("tokenHash"), idem),
      ),
  );
  return app;
}
