import { z } from "zod";
import { ZEntityId, ZIsoTime, ZTenantId } from "./primitives.js";

/**
 * Passkeys (WebAuthn): a signed-in person registers one (options → verify), lists and removes
 * theirs; anyone signs in with one (options → verify → a new session). The browser's
 * credential JSON (`PublicKeyCredential.toJSON()`) travels as it is; the server checks it.
 */

const ZB64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "must be base64url");

/** What `navigator.credentials.create()` answered, as JSON. */
export const ZPasskeyRegistrationResponse = z.looseObject({
  id: ZB64url(1400),
  rawId: ZB64url(1400),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  response: z.looseObject({
    clientDataJSON: ZB64url(4096),
    attestationObject: ZB64url(16_384),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});

/** What `navigator.credentials.get()` answered, as JSON. */
export const ZPasskeyAuthenticationResponse = z.looseObject({
  id: ZB64url(1400),
  rawId: ZB64url(1400),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  response: z.looseObject({
    clientDataJSON: ZB64url(4096),
    authenticatorData: ZB64url(4096),
    signature: ZB64url(2048),
    userHandle: ZB64url(128).optional(),
  }),
});

/** `POST /v1/passkeys/registration-options` and `POST /v1/passkeys/sign-in-options`: no input. */
export const ZPasskeyOptionsRequest = z.strictObject({});
/** The options to hand to the browser's WebAuthn call (`PublicKeyCredential.parse…OptionsFromJSON`). */
export const ZPasskeyOptions = z.looseObject({ challenge: z.string() });

/** `POST /v1/passkeys`: the new credential. */
export const ZRegisterPasskeyRequest = z.strictObject({ response: ZPasskeyRegistrationResponse });
/** `POST /v1/passkeys/sign-in`: the signed challenge. */
export const ZPasskeySignInRequest = z.strictObject({ response: ZPasskeyAuthenticationResponse });

/** One of my passkeys. */
export const ZPasskeyInfo = z.object({
  passkey_id: z.string(),
  /** A label from the User-Agent it was added on, e.g. "Chrome on Linux"; null when unknown. */
  device: z.string().nullable(),
  created_at: ZIsoTime,
  last_used_at: ZIsoTime.nullable(),
});
export const ZPasskeyList = z.object({ passkeys: z.array(ZPasskeyInfo) });
export const ZPasskeyRemoved = z.object({ passkey_id: z.string(), removed: z.literal(true) });

/** Signed in with a passkey: the new session and its token (exchange it for the cookie with POST /v1/session). */
export const ZPasskeySignInResponse = z.object({
  tenant_id: ZTenantId,
  entity_id: ZEntityId,
  display_name: z.string(),
  session_id: z.string(),
  token: z.string(),
});
