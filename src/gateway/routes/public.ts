import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ZAcceptInviteRequest, ZCreateWorkspaceRequest, ZSessionRequest } from "../../../contracts/gateway.js";
import { AppError } from "../../shared/errors.js";
import { authenticate, bearerOf, SESSION_COOKIE, type GwEnv } from "../auth/middleware.js";
import { acceptInvite, createWorkspace, describeInvite, refuseClosedSignup } from "../commands/workspaces.js";
import type { Core } from "../core.js";
import { parseWith, readJson } from "../http-body.js";
import type { IdemScope } from "../idempotency.js";
import { idempotentWrite } from "./write.js";

/**
 * Routes reachable without a session: workspace creation, invites, and signing in. The session
 * cookie is HttpOnly (no script can read it), SameSite=Strict (never sent on a cross-site
 * request) and Secure whenever the public URL is https.
 */
export function createPublicRoutes(core: Core): Hono<GwEnv> {
  const app = new Hono<GwEnv>();
  const secure = () => (core.publicUrl() ?? "").startsWith("https:");
  const setSession = (c: Parameters<typeof setCookie>[0], token: string) =>
    setCookie(c, SESSION_COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/", secure: secure(), maxAge: 30 * 24 * 3600 });

  app.post("/v1/workspaces", async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZCreateWorkspaceRequest, value, "workspace");
    // Checked after the idempotency lookup: a retry of a workspace created before sign-up shut
    // still gets its stored 201, and the anonymous rate limit counts refused attempts too.
    const run = (idem: IdemScope) => {
      refuseClosedSignup(core);
      return createWorkspace(core, body, idem);
    };
    return idempotentWrite(core, c, raw, run, { anonymous: true });
  });

  app.get("/v1/invites/:invite", (c) => c.json(describeInvite(core, c.req.param("invite"))));

  app.post("/v1/invites/:invite/accept", async (c) => {
    const { raw, value } = await readJson(c);
    const body = parseWith(ZAcceptInviteRequest, value, "invite acceptance");
    return idempotentWrite(core, c, raw, (idem) => acceptInvite(core, c.req.param("invite"), body, idem), { anonymous: true });
  });

  // Exchanges a token for the session cookie. It writes no event, so it needs no Idempotency-Key.
  app.post("/v1/session", async (c) => {
    const { value } = await readJson(c);
    const { token } = parseWith(ZSessionRequest, value, "session");
    const p = core.tokens.resolve(token);
    if (!p) throw new AppError("UNAUTHORIZED", "This token is unknown or was revoked");
    setSession(c, token);
    const me = core.me(p);
    return c.json({ tenant_id: p.tenantId, entity_id: p.entityId, display_name: me.display_name, roles: me.roles });
  });

  // The demo's one-click link. The token leaves the address bar at once (302 to a clean URL);
  // Referrer-Policy: no-referrer keeps it out of any Referer header meanwhile.
  app.get("/signin", (c) => {
    const token = c.req.query("token") ?? "";
    const p = token ? core.tokens.resolve(token) : null;
    c.header("Referrer-Policy", "no-referrer");
    c.header("Cache-Control", "no-store");
    if (!p) return c.redirect("/?signin=failed", 302);
    setSession(c, token);
    return c.redirect("/", 302);
  });

  const auth = authenticate(core.tokens);
  app.get("/v1/session", auth, (c) => {
    const p = c.get("principal");
    const me = core.me(p);
    return c.json({ tenant_id: p.tenantId, entity_id: p.entityId, display_name: me.display_name, actor_type: me.actor_type, roles: me.roles, email: me.email?.redacted ?? null });
  });
  // Signing out revokes the token itself, not just the cookie: a copied cookie stops working too.
  app.delete("/v1/session", auth, (c) => {
    const token = bearerOf(c) ?? getCookie(c, SESSION_COOKIE);
    if (token) core.tokens.revoke(token);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.json({ ok: true });
  });
  return app;
}
