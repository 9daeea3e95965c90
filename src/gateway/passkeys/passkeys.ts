import { randomBytes } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
} from "@simplewebauthn/server";
import type { Clock } from "../../shared/clock.js";
import type { Db } from "../../shared/db.js";
import { AppError } from "../../shared/errors.js";
import type { AuthRows } from "../auth/auth-rows.js";
import type { Principal } from "../auth/token-store.js";
import { createChallengeStore } from "./challenges.js";

/**
 * The WebAuthn library, loaded after the start rather than at it (the boot does not wait for it),
 * and soon enough that the first person to add a passkey does not wait for it either.
 */
const webauthn = () => import("@simplewebauthn/server");
const WARM_AFTER_MS = 1_000;

interface PasskeyRow {
  passkey_id: string;
  credential_id: string;
  tenant_id: string;
  entity_id: string;
  public_key: string;
  counter: number;
  transports: string | null;
  device_label: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface PasskeyInfo {
  passkey_id: string;
  device: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface Passkeys {
  /** Options for `navigator.credentials.create()`: a discoverable credential for this person, none they already have. */
  registrationOptions(p: Principal, person: { name: string }): Promise<PublicKeyCredentialCreationOptionsJSON>;
  /** Verifies the new credential against a challenge made for this person (once) and keeps its public key. */
  register(p: Principal, response: RegistrationResponseJSON, device: string | undefined): Promise<PasskeyInfo>;
  /** The person's passkeys, newest first. */
  list(p: Principal): PasskeyInfo[];
  /** Removes one of the person's passkeys; false when it is not theirs or not there. */
  remove(p: Principal, passkeyId: string): boolean;
  /** Options for `navigator.credentials.get()` with no credential named: the authenticator offers its passkeys. */
  signInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON>;
  /** Verifies an assertion (challenge once, origin, RP ID, signature, counter) and says whose passkey it is. */
  verifySignIn(response: AuthenticationResponseJSON): Promise<{ principal: Principal; passkeyId: string }>;
}

const infoOf = (r: PasskeyRow): PasskeyInfo => ({
  passkey_id: r.passkey_id,
  device: r.device_label,
  created_at: r.created_at,
  last_used_at: r.last_used_at,
});

/** The challenge the browser signed, read from clientDataJSON so it can be used up before verifying. */
function challengeOf(clientDataJSON: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown };
    if (typeof parsed.challenge === "string" && parsed.challenge.length > 0 && parsed.challenge.length <= 200)
      return parsed.challenge;
  } catch {
    // Answered below as a bad request.
  }
  throw new AppError(
    "VALIDATION_ERROR",
    "Invalid request: response.response.clientDataJSON is not WebAuthn client data",
    { field: "response.response.clientDataJSON" },
  );
}

/** The WebAuthn user handle of a person: their workspace and entity id (no secret, and never shown). */
const userIdOf = (p: { tenantId: string; entityId: string }) => new TextEncoder().encode(`${p.tenantId}/${p.entityId}`);
const userHandleOf = (r: PasskeyRow) =>
  Buffer.from(userIdOf({ tenantId: r.tenant_id, entityId: r.entity_id })).toString("base64url");

const refused = (err: unknown) =>
  new AppError(
    "PASSKEY_REFUSED",
    `This passkey answer does not verify: ${(err as Error).message}`,
    { reason: "verification_failed" },
    { cause: err },
  );

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server. The relying party is the configured public
 * URL, never a request header: a passkey made for this server's name answers only to it, so a
 * look-alike host in front of it cannot use one.
 */
export function createPasskeys(deps: {
  db: Db;
  /** Where challenges live: beside the passkeys, or shared by every process. */
  rows: AuthRows;
  clock: Clock;
  publicUrl: () => string | undefined;
  challengeTtlMs: number;
  rpName: string;
}): Passkeys {
  const { db, clock } = deps;
  const challenges = createChallengeStore({ rows: deps.rows, clock, ttlMs: deps.challengeTtlMs });
  setTimeout(() => void webauthn().catch(() => {}), WARM_AFTER_MS).unref();
  const cols =
    "passkey_id, credential_id, tenant_id, entity_id, public_key, counter, transports, device_label, created_at, last_used_at";
  const mine = db.prepare<[string, string], PasskeyRow>(
    `SELECT ${cols} FROM gateway_passkeys WHERE tenant_id = ? AND entity_id = ? ORDER BY created_at DESC, passkey_id`,
  );
  const byCredential = db.prepare<[string], PasskeyRow>(`SELECT ${cols} FROM gateway_passkeys WHERE credential_id = ?`);
  const insert = db.prepare(
    "INSERT INTO gateway_passkeys (passkey_id, credential_id, tenant_id, entity_id, public_key, counter, transports, device_label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const used = db.prepare("UPDATE gateway_passkeys SET counter = ?, last_used_at = ? WHERE passkey_id = ?");
  const del = db.prepare("DELETE FROM gateway_passkeys WHERE tenant_id = ? AND entity_id = ? AND passkey_id = ?");
  const timeout = deps.challengeTtlMs;

  const relyingParty = () => {
    const url = deps.publicUrl();
    if (!url)
      throw new AppError("SERVICE_UNAVAILABLE", "Passkeys need this server's public address (PUBLIC_URL)", {
        reason: "public_url_not_set",
      });
    const u = new URL(url);
    return { rpID: u.hostname, origin: u.origin };
  };

  return {
    async registrationOptions(p, person) {
      const { rpID } = relyingParty();
      const options = await (await webauthn()).generateRegistrationOptions({
        rpName: deps.rpName,
        rpID,
        userName: person.name,
        userDisplayName: person.name,
        userID: userIdOf(p),
        timeout,
        attestationType: "none",
        excludeCredentials: mine.all(p.tenantId, p.entityId).map((r) => ({ id: r.credential_id })),
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
      });
      challenges.save(options.challenge, "register", p);
      return options;
    },
    async register(p, response, device) {
      const { rpID, origin } = relyingParty();
      const challenge = challengeOf(response.response.clientDataJSON);
      await challenges.take(challenge, "register", p);
      const verified = await (await webauthn())
        .verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        })
        .catch((err: unknown) => {
          throw refused(err);
        });
      if (!verified.verified) throw refused(new Error("not verified"));
      const { credential } = verified.registrationInfo;
      if (byCredential.get(credential.id))
        throw new AppError("CONFLICT", "This passkey is registered already", { reason: "already_registered" });
      const passkeyId = `pk_${randomBytes(12).toString("hex")}`;
      const now = clock.iso();
      insert.run(
        passkeyId,
        credential.id,
        p.tenantId,
        p.entityId,
        Buffer.from(credential.publicKey).toString("base64url"),
        credential.counter,
        JSON.stringify(credential.transports ?? []),
        device ?? null,
        now,
      );
      return { passkey_id: passkeyId, device: device ?? null, created_at: now, last_used_at: null };
    },
    list: (p) => mine.all(p.tenantId, p.entityId).map(infoOf),
    remove: (p, passkeyId) => del.run(p.tenantId, p.entityId, passkeyId).changes > 0,
    async signInOptions() {
      const { rpID } = relyingParty();
      const options = await (await webauthn()).generateAuthenticationOptions({
        rpID,
        timeout,
        userVerification: "required",
        allowCredentials: [],
      });
      challenges.save(options.challenge, "sign_in");
      return options;
    },
    async verifySignIn(response) {
      const { rpID, origin } = relyingParty();
      const challenge = challengeOf(response.response.clientDataJSON);
      await challenges.take(challenge, "sign_in");
      const row = byCredential.get(response.id);
      if (!row)
        throw new AppError(
          "UNAUTHORIZED",
          "This passkey is not known here: it was removed, or made for another server",
          { reason: "unknown_credential" },
        );
      // The authenticator names whose passkey it is; it must be the person we stored it for.
      const handle = response.response.userHandle;
      if (handle && handle !== userHandleOf(row))
        throw refused(new Error("the user handle is not this passkey's person"));
      const transports = JSON.parse(row.transports ?? "[]") as NonNullable<
        Parameters<typeof verifyAuthenticationResponse>[0]["credential"]["transports"]
      >;
      const verified = await (await webauthn())
        .verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          credential: {
            id: row.credential_id,
            publicKey: Buffer.from(row.public_key, "base64url"),
            counter: row.counter,
            transports,
          },
          requireUserVerification: true,
        })
        .catch((err: unknown) => {
          throw refused(err);
        });
      if (!verified.verified) throw refused(new Error("not verified"));
      used.run(verified.authenticationInfo.newCounter, clock.iso(), row.passkey_id);
      return { principal: { tenantId: row.tenant_id, entityId: row.entity_id }, passkeyId: row.passkey_id };
    },
  };
}
