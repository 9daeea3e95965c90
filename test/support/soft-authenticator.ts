import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/**
 * A software passkey authenticator for HTTP tests: an ES256 key pair, "none" attestation, user
 * present and verified, a signature counter. It answers WebAuthn options the way a browser
 * would (the JSON of `PublicKeyCredential.toJSON()`), for any origin a test asks for, so tests
 * can also send what a look-alike site would.
 */

type CborValue = number | string | Uint8Array | Map<CborValue, CborValue>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(n, 1);
  return b;
}

/** Just enough CBOR for an attestation object and a COSE key. */
function cbor(v: CborValue): Buffer {
  if (typeof v === "number") return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === "string") return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (v instanceof Uint8Array) return Buffer.concat([head(2, v.length), Buffer.from(v)]);
  return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [cbor(k), cbor(x)])]);
}

const b64url = (b: Uint8Array | string) => Buffer.from(b).toString("base64url");
const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest();

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftAuthenticator {
  credentialId: string;
  /** Answers registration options (from POST /v1/passkeys/registration-options). */
  register(options: any, opts?: { origin?: string }): object;
  /** Answers sign-in options (from POST /v1/passkeys/sign-in-options). */
  signIn(options: any, opts?: { origin?: string; counter?: number; userHandle?: string }): object;
}

export function createSoftAuthenticator(rp: { origin: string; rpId: string }): SoftAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" }) as {
    privateKey: KeyObject;
    publicKey: KeyObject;
  };
  const jwk = publicKey.export({ format: "jwk" });
  const cose = cbor(
    new Map<CborValue, CborValue>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]),
  );
  const credId = randomBytes(16);
  let counter = 0;
  let userHandle = "";
  const authData = (flags: number, count: number, attested?: Buffer) => {
    const c = Buffer.alloc(4);
    c.writeUInt32BE(count);
    return Buffer.concat([sha256(rp.rpId), Buffer.from([flags]), c, ...(attested ? [attested] : [])]);
  };
  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  return {
    credentialId: b64url(credId),
    register(options, opts = {}) {
      userHandle = options.user.id;
      const len = Buffer.alloc(2);
      len.writeUInt16BE(credId.length);
      const attested = Buffer.concat([Buffer.alloc(16), len, credId, cose]);
      const attestationObject = cbor(
        new Map<CborValue, CborValue>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData(UP | UV | AT, counter, attested)],
        ]),
      );
      return {
        id: b64url(credId),
        rawId: b64url(credId),
        type: "public-key",
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
        response: {
          clientDataJSON: b64url(clientData("webauthn.create", options.challenge, opts.origin ?? rp.origin)),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
      };
    },
    signIn(options, opts = {}) {
      counter = opts.counter ?? counter + 1;
      const data = authData(UP | UV, counter);
      const cd = clientData("webauthn.get", options.challenge, opts.origin ?? rp.origin);
      const signature = sign("sha256", Buffer.concat([data, sha256(cd)]), privateKey);
      return {
        id: b64url(credId),
        rawId: b64url(credId),
        type: "public-key",
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
        response: {
          clientDataJSON: b64url(cd),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          ...((opts.userHandle ?? userHandle) ? { userHandle: opts.userHandle ?? userHandle } : {}),
        },
      };
    },
  };
}
