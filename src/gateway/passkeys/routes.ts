import { createRoute, z } from "@hono/zod-openapi";
import {
  ZPasskeyList,
  ZPasskeyOptions,
  ZPasskeyOptionsRequest,
  ZPasskeyInfo,
  ZPasskeyRemoved,
  ZPasskeySignInRequest,
  ZPasskeySignInResponse,
  ZRegisterPasskeyRequest,
} from "../../../contracts/passkeys.js";
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
import { deviceLabel } from "../sessions/index.js";
import { idempotentWrite } from "../http/idempotent-write.js";

const ANON_WRITE_ERRORS = [400, 401, 403, 409, 413, 415, 429, 503];
const ANON_IDEMPOTENCY = {
  ...IDEMPOTENCY_HEADER,
  description: "A random value of at least 16 characters (anonymous writes share one scope)",
};

/**
 * Passkeys: a signed-in person adds (options → verify), lists and removes theirs; anyone signs
 * in with one (options → verify → a new session). Anonymous writes need an unguessable
 * Idempotency-Key, like the other anonymous writes.
 */
export function createPasskeyRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const signedIn = { security: SIGNED_IN, middleware: authenticate(core.tokens) };
  const tags = ["Session"];

  route(
    app,
    createRoute({
      ...signedIn,
      method: "post",
      path: "/v1/passkeys/registration-options",
      summary:
        "Start adding a passkey: options for the browser's WebAuthn call (the challenge works once, for 5 minutes)",
      tags,
      parameters: [IDEMPOTENCY_HEADER],
      request: { body: jsonBody(ZPasskeyOptionsRequest) },
      responses: { 200: json(ZPasskeyOptions, "PublicKeyCredentialCreationOptionsJSON"), ...errors(...WRITE_ERRORS) },
    }),
    async (c) =>
      idempotentWrite(core, c, await c.req.text(), (idem) => api.passkeyRegistrationOptions(c.get("principal"), idem)),
  );

  route(
    app,
    createRoute({
      ...signedIn,
      method: "post",
      path: "/v1/passkeys",
      summary: "Add a passkey: the browser's new credential, verified against this server's address",
      tags,
      parameters: [IDEMPOTENCY_HEADER],
      request: { body: jsonBody(ZRegisterPasskeyRequest) },
      responses: { 201: json(ZPasskeyInfo, "The passkey"), ...errors(...WRITE_ERRORS) },
    }),
    async (c) => {
      const { response } = c.req.valid("json");
      const device = deviceLabel(c.req.header("user-agent"));
      return idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.registerPasskey(c.get("principal"), response, device, idem),
      );
    },
  );

  route(
    app,
    createRoute({
      ...signedIn,
      method: "get",
      path: "/v1/passkeys",
      summary: "My passkeys (added on, added, last used)",
      tags,
      responses: { 200: json(ZPasskeyList, "My passkeys"), ...errors(...READ_ERRORS) },
    }),
    (c) => c.json(api.listPasskeys(c.get("principal"))),
  );

  route(
    app,
    createRoute({
      ...signedIn,
      method: "delete",
      path: "/v1/passkeys/{passkey_id}",
      summary: "Remove one of my passkeys: it signs nobody in from now on",
      tags,
      parameters: [IDEMPOTENCY_HEADER],
      request: {
        params: z.object({
          passkey_id: z.string().regex(/^pk_[0-9a-f]{24}$/, "must be a passkey id (pk_ and 24 hex digits)"),
        }),
      },
      responses: { 200: json(ZPasskeyRemoved, "Removed"), ...errors(...WRITE_ERRORS) },
    }),
    async (c) =>
      idempotentWrite(core, c, await c.req.text(), (idem) =>
        api.removePasskey(c.get("principal"), c.req.valid("param").passkey_id, idem),
      ),
  );

  route(
    app,
    createRoute({
      method: "post",
      path: "/v1/passkeys/sign-in-options",
      summary:
        "Start signing in with a passkey: options for the browser's WebAuthn call (the challenge works once, for 5 minutes)",
      tags,
      parameters: [ANON_IDEMPOTENCY],
      request: { body: jsonBody(ZPasskeyOptionsRequest) },
      responses: {
        200: json(ZPasskeyOptions, "PublicKeyCredentialRequestOptionsJSON"),
        ...errors(...ANON_WRITE_ERRORS),
      },
    }),
    async (c) =>
      idempotentWrite(core, c, await c.req.text(), (idem) => api.passkeySignInOptions(idem), { anonymous: true }),
  );

  route(
    app,
    createRoute({
      method: "post",
      path: "/v1/passkeys/sign-in",
      summary: "Sign in with a passkey: a new session for its person (refused when they are deactivated)",
      tags,
      parameters: [ANON_IDEMPOTENCY],
      request: { body: jsonBody(ZPasskeySignInRequest) },
      responses: {
        201: json(ZPasskeySignInResponse, "Signed in: the new session and its token"),
        ...errors(...ANON_WRITE_ERRORS),
      },
    }),
    async (c) => {
      const { response } = c.req.valid("json");
      const device = deviceLabel(c.req.header("user-agent"));
      return idempotentWrite(core, c, await c.req.text(), (idem) => api.signInWithPasskey(response, device, idem), {
        anonymous: true,
      });
    },
  );
  return app;
}
