import QRCode from "qrcode";
import type { z } from "zod";
import type { ZEmailSignInLinkRequest } from "../../../contracts/sessions.js";
import { AppError } from "../../shared/errors.js";
import { hashSecret, newSessionId, type Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { signInMessage, type LinkPurpose } from "./index.js";

/**
 * Sessions and one-time sign-in links. None of this is a ledger event: a session says which
 * device a person used and when, which is theirs, not the workspace's, and an append-only log
 * could never forget it. The gateway's own table keeps it (device label, start, last seen, end).
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export function recorded(
  core: Core,
  idem: IdemScope | undefined,
  status: number,
  change: () => unknown,
): StoredResponse {
  let stored: StoredResponse | undefined;
  core.db.transaction(() => {
    stored = { status, body: change() };
    if (idem) core.idem.record(idem, stored, core.db);
  })();
  return stored!;
}

/** The code travels after `#`, so it never reaches a server log, a proxy or a Referer. */
function linkUrl(core: Core, code: string): string {
  return `${core.publicUrl() ?? ""}/signin/link#${code}`;
}

const ttlSeconds = (core: Core) => Math.ceil(core.signIn.linkTtlMs / 1000);

/** A link (and its QR code) that signs me in once on another device. */
export async function createSignInLink(core: Core, p: Principal, idem: IdemScope): Promise<StoredResponse> {
  const me = core.me(p);
  if (me.actor_type !== "human") throw new AppError("FORBIDDEN", "Only a person signs in on devices");
  // The link row stands alone (an unused link is harmless); the reply, with its QR code drawn
  // outside any transaction, is stored for the Idempotency-Key after.
  const made = core.signIn.links.create(p, "device_link");
  const url = linkUrl(core, made.code);
  const qr = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  const body = {
    url,
    expires_at: made.expiresAt,
    ttl_seconds: ttlSeconds(core),
    qr_data_url: `data:image/svg+xml;base64,${Buffer.from(qr).toString("base64")}`,
  };
  return recorded(core, idem, 201, () => body);
}

/** The code from a link becomes a new session of the same person: once, before it expires. */
export async function redeemSignInLink(
  core: Core,
  code: string,
  device: string,
  idem: IdemScope,
): Promise<StoredResponse> {
  const link = await core.signIn.links.check(code);
  const p = { tenantId: link.tenant_id, entityId: link.entity_id };
  const person = core.tenant(p.tenantId).entities.get(p.entityId);
  if (!person)
    throw new AppError("SIGNIN_LINK_EXPIRED", "This sign-in link's person is no longer in the workspace.", {
      reason: "gone",
    });
  // Spent first: of two uses at once, on any process, one spends it and the other is refused.
  const sessionId = newSessionId();
  await core.signIn.links.spend(link.hash, sessionId);
  return recorded(core, idem, 201, () => {
    const made = core.tokens.issueSession(p, { device, via: link.purpose, sessionId });
    return {
      tenant_id: p.tenantId,
      entity_id: p.entityId,
      display_name: person.display_name,
      session_id: made.sessionId,
      token: made.token,
    };
  });
}

const EMAIL_ANSWER =
  "If that address belongs to someone here, a sign-in link is on its way. It works once, for a few minutes.";

/**
 * Emails a sign-in link to each person whose address this is (one per workspace they are in).
 * The answer is the same whether or not anyone has the address, and the mail goes out after it
 * (not awaited), so neither the words nor the time tell an address apart. Limited per address
 * (whoever asks) and per client address, known or not.
 */
export async function emailSignInLink(
  core: Core,
  body: z.infer<typeof ZEmailSignInLinkRequest>,
  client: string,
  idem: IdemScope,
  wait: (s: number) => Promise<void>,
): Promise<StoredResponse> {
  const mailer = core.signIn.mailer;
  if (!mailer)
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "Sign-in links by email are off here: this server has no mail configured.",
      { reason: "mail_not_configured" },
    );
  const address = body.email.trim();
  if (!EMAIL.test(address)) throw new AppError("VALIDATION_ERROR", "That is not an email address", { field: "email" });
  await wait(
    Math.max(
      await core.signIn.perClient.take(client),
      await core.signIn.perAddress.take(hashSecret(address.toLowerCase())),
    ),
  );
  const found: Array<{ p: Principal; name: string; to: string }> = [];
  for (const state of core.projector.tenants()) {
    const hash = core.office.vault.hashOf(state.tenant_id, "email", address);
    for (const e of state.entities.values()) {
      if (e.actor_type !== "human" || e.email?.hash !== hash || !e.email.vault_ref) continue;
      const to = core.office.vault.get(state.tenant_id, e.email.vault_ref);
      if (to) found.push({ p: { tenantId: state.tenant_id, entityId: e.entity_id }, name: e.display_name, to });
    }
  }
  const links = found.map((f) => ({ ...f, link: core.signIn.links.create(f.p, "email_link" satisfies LinkPurpose) }));
  const ttlMinutes = Math.max(1, Math.round(core.signIn.linkTtlMs / 60_000));
  for (const l of links) {
    const msg = signInMessage({ displayName: l.name, url: linkUrl(core, l.link.code), ttlMinutes });
    mailer
      .send({ to: l.to, ...msg })
      .catch((err: unknown) =>
        core.logger.warn({ err: (err as Error).message, tenant_id: l.p.tenantId }, "sign-in email not sent"),
      );
  }
  return recorded(core, idem, 202, () => ({ accepted: true, message: EMAIL_ANSWER }));
}

/** What the sign-in page can offer. */
export function signInOptions(core: Core) {
  return { email_links: Boolean(core.signIn.mailer), link_ttl_seconds: ttlSeconds(core) };
}

/** My sessions, this one marked. */
export async function listSessions(core: Core, p: Principal, currentHash: string) {
  core.me(p);
  return {
    sessions: (await core.tokens.sessions(p)).map((s) => ({
      session_id: s.session_id,
      device: s.device_label,
      signed_in_via: s.signed_in_via,
      created_at: s.created_at,
      last_seen_at: s.last_seen_at,
      current: s.token_hash === currentHash,
    })),
  };
}

/** Ends one of my sessions: its token fails from now on and its open streams end. */
export async function endSession(
  core: Core,
  p: Principal,
  sessionId: string,
  currentHash: string,
  idem: IdemScope,
): Promise<StoredResponse> {
  core.me(p);
  const s = await core.tokens.sessionById(p, sessionId);
  if (!s) throw notFound("Session");
  // Revoking drops the token from the cache and closes its streams at once.
  return recorded(core, idem, 200, () => {
    core.tokens.revokeHash(s.token_hash);
    return { session_id: sessionId, ended: true, current: s.token_hash === currentHash };
  });
}

/** Who is signed in, as `GET /v1/session` answers. */
export interface SessionView {
  tenant_id: string;
  entity_id: string;
  display_name: string;
  actor_type: "human" | "agent";
  roles: string[];
  email: string | null;
  /** The language chosen in my profile (a BCP 47 tag); absent: the browser's. */
  locale?: string;
  /** Whether the others see when I read their messages (my profile's setting; default on). */
  read_receipts: boolean;
  /** Whether Start a call is offered (JITSI_BASE_URL is set). */
  calls: boolean;
}

/** GET /v1/session: who this token is. */
export function session(core: Core, p: Principal): SessionView {
  const me = core.me(p);
  return {
    tenant_id: p.tenantId,
    entity_id: p.entityId,
    display_name: me.display_name,
    actor_type: me.actor_type,
    roles: me.roles,
    email: me.email?.redacted ?? null,
    ...(me.locale ? { locale: me.locale } : {}),
    read_receipts: me.read_receipts !== false,
    calls: core.office.calls,
  };
}

/** POST /v1/session: a bearer token becomes a session (the route sets the cookie). */
export async function openSession(core: Core, token: string): Promise<{ principal: Principal; session: SessionView }> {
  const principal = await core.tokens.resolve(token);
  if (!principal) throw new AppError("UNAUTHORIZED", "This token is unknown or was revoked");
  return { principal, session: session(core, principal) };
}

/** DELETE /v1/session: the token is revoked (its streams close within a second). */
export function signOut(core: Core, token: string): void {
  core.tokens.revoke(token);
}
