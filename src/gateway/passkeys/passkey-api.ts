import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { z } from "zod";
import type { ZPasskeyAuthenticationResponse, ZPasskeyRegistrationResponse } from "../../../contracts/passkeys.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import type { PasskeyInfo } from "./index.js";
import { recorded } from "../sessions/sessions.js";

/**
 * Passkeys: kept with the sessions, out of the ledger (a credential is a person's own device,
 * not the workspace's history, and an append-only log could never forget one).
 */
export interface PasskeyApi {
  /** POST /v1/passkeys/registration-options: a person (not an agent) starts adding a passkey. */
  passkeyRegistrationOptions(p: Principal, idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/passkeys: the new passkey, verified against a challenge made for this person. */
  registerPasskey(
    p: Principal,
    response: z.infer<typeof ZPasskeyRegistrationResponse>,
    device: string | undefined,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** GET /v1/passkeys: my passkeys with when they were added and last used. */
  listPasskeys(p: Principal): { passkeys: PasskeyInfo[] };
  /** DELETE /v1/passkeys/:id: it signs nobody in from now on. */
  removePasskey(p: Principal, passkeyId: string, idem: IdemScope): StoredResponse;
  /** POST /v1/passkeys/sign-in-options: anyone; the authenticator offers the passkeys it holds. */
  passkeySignInOptions(idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/passkeys/sign-in: a verified passkey of an active person becomes a new session of theirs. */
  signInWithPasskey(
    response: z.infer<typeof ZPasskeyAuthenticationResponse>,
    device: string | undefined,
    idem: IdemScope,
  ): Promise<StoredResponse>;
}

// The parsed JSON never holds `undefined` (JSON has none), so the casts below only restate what zod checked.
function person(core: Core, p: Principal) {
  const me = core.me(p);
  if (me.actor_type !== "human") throw new AppError("FORBIDDEN", "Only a person signs in with a passkey");
  return me;
}

export function createPasskeyApi(core: Core): PasskeyApi {
  const { passkeys } = core;
  return {
    async passkeyRegistrationOptions(p, idem) {
      const me = person(core, p);
      const options = await passkeys.registrationOptions(p, { name: me.display_name });
      return recorded(core, idem, 200, () => options);
    },
    async registerPasskey(p, response, device, idem) {
      person(core, p);
      const made = await passkeys.register(p, response as RegistrationResponseJSON, device);
      return recorded(core, idem, 201, () => made);
    },
    listPasskeys(p) {
      person(core, p);
      return { passkeys: passkeys.list(p) };
    },
    removePasskey(p, passkeyId, idem) {
      person(core, p);
      return recorded(core, idem, 200, () => {
        if (!passkeys.remove(p, passkeyId)) throw notFound("Passkey");
        return { passkey_id: passkeyId, removed: true };
      });
    },
    async passkeySignInOptions(idem) {
      const options = await passkeys.signInOptions();
      return recorded(core, idem, 200, () => options);
    },
    async signInWithPasskey(response, device, idem) {
      const { principal: p } = await passkeys.verifySignIn(response as AuthenticationResponseJSON);
      const who = core.tenant(p.tenantId).entities.get(p.entityId);
      if (!who)
        throw new AppError("UNAUTHORIZED", "This passkey's person is no longer in the workspace", { reason: "gone" });
      // Deactivation revokes every session; a passkey must not make a new one behind it.
      if (who.status)
        throw new AppError(
          "FORBIDDEN",
          `${who.display_name} is deactivated in this workspace: an admin can reactivate them`,
          { reason: "deactivated" },
        );
      return recorded(core, idem, 201, () => {
        const made = core.tokens.issueSession(p, { device, via: "passkey" });
        return {
          tenant_id: p.tenantId,
          entity_id: p.entityId,
          display_name: who.display_name,
          session_id: made.sessionId,
          token: made.token,
        };
      });
    },
  };
}
