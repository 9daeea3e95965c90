import { z } from "zod";
import { ZEntityId, ZIsoTime, ZTenantId } from "./primitives.js";

/**
 * Signing in anywhere: one-time sign-in links (shown as a link and a QR code on a signed-in
 * device, or sent by email), and the sessions each person holds, which they can end.
 */

/** A one-time code as it travels in a link (`/signin/link#<code>`): `lnk_` and 43 base64url characters. */
export const ZSignInCode = z
  .string()
  .regex(/^lnk_[A-Za-z0-9_-]{43}$/, "must be the code from a sign-in link (lnk_ and 43 letters, digits, - or _)");

/** `POST /v1/sign-in-links`: a link for another device of mine. */
export const ZCreateSignInLinkRequest = z.strictObject({});
export const ZSignInLinkCreated = z.object({
  /** Open it on the other device: it works once, until `expires_at`. */
  url: z.string(),
  expires_at: ZIsoTime,
  ttl_seconds: z.number().int().positive(),
  /** The same link as a QR code: an SVG image as a data: URL. */
  qr_data_url: z.string(),
});

/** `POST /v1/sign-in-links/redeem`: the code from the link; a new session for its person. */
export const ZRedeemSignInLinkRequest = z.strictObject({ code: ZSignInCode });
export const ZRedeemSignInLinkResponse = z.object({
  tenant_id: ZTenantId,
  entity_id: ZEntityId,
  display_name: z.string(),
  session_id: z.string(),
  /** The new session's token (exchange it for the cookie with POST /v1/session). */
  token: z.string(),
});

/** `POST /v1/sign-in-links/email`: where to send a sign-in link. */
export const ZEmailSignInLinkRequest = z.strictObject({ email: z.string().trim().min(3).max(254) });
/** The same answer whether or not the address belongs to anyone here. */
export const ZEmailSignInLinkAccepted = z.object({ accepted: z.literal(true), message: z.string() });

/** `GET /v1/sign-in-options`: what the sign-in page can offer. */
export const ZSignInOptions = z.object({ email_links: z.boolean(), link_ttl_seconds: z.number().int().positive() });

export const SIGNED_IN_VIA = ["workspace", "invite", "device_link", "email_link", "admin", "demo", "passkey"] as const;

/** One of my sessions. */
export const ZSessionInfo = z.object({
  session_id: z.string(),
  /** A label from the User-Agent it was made with, e.g. "Firefox on Android"; null when unknown. */
  device: z.string().nullable(),
  signed_in_via: z.string().nullable(),
  created_at: ZIsoTime,
  last_seen_at: ZIsoTime.nullable(),
  /** The session this request was made with. */
  current: z.boolean(),
});
export const ZSessionList = z.object({ sessions: z.array(ZSessionInfo) });
export const ZSessionEnded = z.object({ session_id: z.string(), ended: z.literal(true), current: z.boolean() });
