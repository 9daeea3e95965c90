import { createRoute, z } from "@hono/zod-openapi";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import {
  ZAcceptInviteRequest,
  ZAcceptInviteResponse,
  ZCreateWorkspaceRequest,
  ZCreateWorkspaceResponse,
  ZSessionRequest,
} from "../../../contracts/gateway.js";
import { ZInviteView, ZOk, ZSessionView } from "../../../contracts/gateway-responses.js";
import { createRouter, errors, IDEMPOTENCY_HEADER, json, jsonBody, route, SIGNED_IN } from "../../shared/openapi.js";
import { authenticate, bearerOf, SESSION_COOKIE, type GwEnv } from "../auth/middleware.js";
import { hashSecret } from "../auth/token-store.js";
import { deviceLabel } from "../sessions/index.js";
import type { GatewayInside } from "../gateway-api.js";
import { idempotentWrite } from "../http/idempotent-write.js";

const inviteParams = z.object({ invite: z.string().min(1).max(256) });
const ANON_WRITE_ERRORS = [400, 403, 404, 409, 413, 415, 429, 503, 507];

/**
 * Routes reachable without a session: workspace creation, invites, and signing in. The session
 * cookie is HttpOnly (no script can read it), SameSite=Strict (never sent on a cross-site
 * request) and Secure whenever the public URL is https.
 */
export function createPublicRoutes(gw: GatewayInside) {
  const { core, api } = gw;
  const app = createRouter<GwEnv>();
  const secure = () => (core.publicUrl() ?? "").startsWith("https:");
  const setSession = (c: Parameters<typeof setCookie>[0], token: string) =>
    setCookie(c, SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      secure: secure(),
      maxAge: 30 * 24 * 3600,
    });

  const workspaces = createRoute({
    method: "post",
    path: "/v1/workspaces",
    summary: "Create a workspace and its owner (sign-up; see SIGNUP)",
    tags: ["Workspace"],
    request: { body: jsonBody(ZCreateWorkspaceRequest) },
    parameters: [
      {
        ...IDEMPOTENCY_HEADER,
        description: "A random value of at least 16 characters (anonymous writes share one scope)",
      },
    ],
    responses: {
      201: json(ZCreateWorkspaceResponse, "The workspace, its owner and the owner's token"),
      ...errors(...ANON_WRITE_ERRORS),
    },
  });
  route(app, workspaces, async (c) => {
    const body = c.req.valid("json");
    return idempotentWrite(core, c, await c.req.text(), (idem) => api.createWorkspace(body, idem), { anonymous: true });
  });

  const invite = createRoute({
    method: "get",
    path: "/v1/invites/{invite}",
    summary: "Read an invite before accepting it",
    tags: ["Workspace"],
    request: { params: inviteParams },
    responses: { 200: json(ZInviteView, "The invite"), ...errors(404) },
  });
  route(app, invite, async (c) => c.json(await api.describeInvite(c.req.valid("param").invite)));

  const accept = createRoute({
    method: "post",
    path: "/v1/invites/{invite}/accept",
    summary: "Join a workspace with an invite (it works once)",
    tags: ["Workspace"],
    request: { params: inviteParams, body: jsonBody(ZAcceptInviteRequest) },
    parameters: [IDEMPOTENCY_HEADER],
    responses: { 201: json(ZAcceptInviteResponse, "The new member and their token"), ...errors(...ANON_WRITE_ERRORS) },
  });
  route(app, accept, async (c) => {
    const body = c.req.valid("json");
    return idempotentWrite(
      core,
      c,
      await c.req.text(),
      (idem) => api.acceptInvite(c.req.valid("param").invite, body, idem),
      { anonymous: true },
    );
  });

  // Exchanges a token for the session cookie. It writes no event, so it needs no Idempotency-Key.
  const openSession = createRoute({
    method: "post",
    path: "/v1/session",
    summary: "Exchange a token for the web app's session cookie",
    tags: ["Session"],
    request: { body: jsonBody(ZSessionRequest) },
    responses: { 200: json(ZSessionView, "Signed in; Set-Cookie carries the session"), ...errors(400, 401, 415) },
  });
  route(app, openSession, async (c) => {
    const { token } = c.req.valid("json");
    const { session } = await api.openSession(token);
    // A token first used here (from an invite, or a new workspace) names this device.
    core.tokens.labelDevice(hashSecret(token), deviceLabel(c.req.header("user-agent")));
    setSession(c, token);
    return c.json(session);
  });

  // The demo's one-click link. The token leaves the address bar at once (302 to a clean URL);
  // Referrer-Policy: no-referrer keeps it out of any Referer header meanwhile.
  const signin = createRoute({
    method: "get",
    path: "/signin",
    summary: "One-click sign-in link: sets the session cookie and redirects to the app",
    tags: ["Session"],
    request: { query: z.object({ token: z.string().optional() }) },
    responses: { 302: { description: "To / (signed in) or /?signin=failed" } },
  });
  route(app, signin, async (c) => {
    const token = c.req.query("token") ?? "";
    const p = token ? await core.tokens.resolve(token) : null;
    c.header("Referrer-Policy", "no-referrer");
    c.header("Cache-Control", "no-store");
    if (!p) return c.redirect("/?signin=failed", 302);
    core.tokens.labelDevice(hashSecret(token), deviceLabel(c.req.header("user-agent")));
    setSession(c, token);
    return c.redirect("/", 302);
  });

  const auth = authenticate(core.tokens);
  const me = createRoute({
    method: "get",
    path: "/v1/session",
    summary: "Who am I",
    tags: ["Session"],
    security: SIGNED_IN,
    middleware: [auth] as const,
    responses: { 200: json(ZSessionView, "The signed-in entity"), ...errors(401) },
  });
  route(app, me, (c) => c.json(api.session(c.get("principal"))));

  // Signing out revokes the token itself, not just the cookie: a copied cookie stops working too.
  const signOut = createRoute({
    method: "delete",
    path: "/v1/session",
    summary: "Sign out: the token is revoked and its streams close",
    tags: ["Session"],
    security: SIGNED_IN,
    middleware: [auth] as const,
    responses: { 200: json(ZOk, "Signed out"), ...errors(401) },
  });
  route(app, signOut, (c) => {
    const token = bearerOf(c) ?? getCookie(c, SESSION_COOKIE);
    if (token) api.signOut(token);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.json({ ok: true });
  });
  return app;
}
