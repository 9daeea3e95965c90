import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TKeysResponse } from "../../contracts/ledger.js";
import { DataKeyError } from "../shared/errors.js";
import { canonicalize } from "./canonical-json.js";

export const SIGNING_KEY_FILE = "ledger-signing-key.pem";
/** A new key waiting for its rotation to commit (see rotateSigningKey). */
export const NEXT_SIGNING_KEY_FILE = `${SIGNING_KEY_FILE}.next`;
/** The public halves of keys rotated out: checkpoints they signed still verify with them. */
export const RETIRED_KEYS_DIR = "retired-signing-keys";

interface CheckpointClaim {
  tenant_id: string;
  tenant_seq: number;
  head_hash: string;
}

export interface Signer {
  keyId: string;
  publicKeyPem: string;
  publicKeyHex: string;
  /** Ed25519 signature (base64url) over the canonical JSON of the claim. */
  signCheckpoint(claim: CheckpointClaim): string;
  /** A raw Ed25519 signature of `message` (signed notes). */
  signBytes(message: Buffer): Buffer;
  verifyCheckpoint(claim: CheckpointClaim, signature: string): boolean;
}

/** The verifying half of a signer: what checking a ledger's checkpoints needs. */
export type Verifier = Pick<Signer, "keyId" | "verifyCheckpoint">;

/**
 * The node's Ed25519 key. With a data dir it is created on first boot as a 0600 PEM file next to
 * the database and reused afterwards (it must never be committed or served); without one the key
 * is ephemeral, which suits tests and throwaway ledgers.
 */
/** The private key in `file`; a file that does not hold one stops the start with the file's name and the remedy. */
function readPrivateKey(file: string): KeyObject {
  try {
    return createPrivateKey(readFileSync(file));
  } catch (err) {
    throw new DataKeyError(
      `${file} is damaged: it does not hold a private key (${(err as Error).message}). Put back the file from a backup (npm run backup copies it); a new key cannot continue this history.`,
    );
  }
}

export function loadOrCreateSigner(dataDir?: string, signedWith?: string): Signer {
  let privateKey: KeyObject;
  if (dataDir) {
    finishRotation(dataDir, signedWith);
    const file = join(dataDir, SIGNING_KEY_FILE);
    if (existsSync(file)) {
      privateKey = readPrivateKey(file);
      const signer = createSigner(privateKey);
      if (signedWith && signer.keyId !== signedWith) {
        throw new DataKeyError(
          `${file} holds key ${signer.keyId}, but this ledger was signed with ${signedWith}: put back the original file (every backup has it); a different key cannot continue this history.`,
        );
      }
      return signer;
    } else if (signedWith) {
      throw new DataKeyError(
        `${file} is missing, but this ledger was signed with ${signedWith}: restore the file from a backup (npm run backup copies it) before starting; a new key would leave the history unverifiable.`,
      );
    } else {
      mkdirSync(dataDir, { recursive: true });
      privateKey = generateKeyPairSync("ed25519").privateKey;
      // flag "wx": two processes booting at once must not overwrite each other's key.
      writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600, flag: "wx" });
    }
  } else {
    privateKey = generateKeyPairSync("ed25519").privateKey;
  }
  return createSigner(privateKey);
}

export function createSigner(privateKey: KeyObject): Signer {
  const publicKey = createPublicKey(privateKey);
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  // The raw 32-byte key is the last 32 bytes of the Ed25519 SPKI DER.
  const raw = publicKey.export({ type: "spki", format: "der" }).subarray(-32);
  const publicKeyHex = raw.toString("hex");
  const keyId = keyIdOf(raw);
  return {
    keyId,
    publicKeyPem,
    publicKeyHex,
    signCheckpoint: (claim) => sign(null, Buffer.from(canonicalize(claimOf(claim))), privateKey).toString("base64url"),
    signBytes: (message) => sign(null, message, privateKey),
    verifyCheckpoint(claim, signature) {
      try {
        return verify(null, Buffer.from(canonicalize(claimOf(claim))), publicKey, Buffer.from(signature, "base64url"));
      } catch {
        return false;
      }
    },
  };
}

const keyIdOf = (raw: Buffer): string => `ed25519:${createHash("sha256").update(raw).digest("hex").slice(0, 16)}`;

/** Only these three fields are signed, whatever else the caller's object carries. */
function claimOf(c: CheckpointClaim): CheckpointClaim {
  return { tenant_id: c.tenant_id, tenant_seq: c.tenant_seq, head_hash: c.head_hash };
}

/** A checkpoint verifier from the PEM of a signing key (e.g. the copy inside a backup). */
export function verifierFromKey(pem: Buffer | string): Verifier {
  const { keyId, verifyCheckpoint } = createSigner(createPrivateKey(pem));
  return { keyId, verifyCheckpoint };
}

/** The verifying half of the key in a data dir, without creating one; null when there is none. */
function loadVerifier(dataDir: string): Verifier | null {
  const file = join(dataDir, SIGNING_KEY_FILE);
  if (!existsSync(file)) return null;
  const { keyId, verifyCheckpoint } = createSigner(readPrivateKey(file));
  return { keyId, verifyCheckpoint };
}

/** A checkpoint verifier from a public key (SPKI PEM), as published at /v1/ledger/keys. */
export function verifierFromPublicKey(pem: Buffer | string): Verifier & { publicKeyPem: string; publicKeyHex: string } {
  const publicKey = createPublicKey(pem);
  const raw = publicKey.export({ type: "spki", format: "der" }).subarray(-32);
  return {
    keyId: keyIdOf(raw),
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    publicKeyHex: raw.toString("hex"),
    verifyCheckpoint(claim, signature) {
      try {
        return verify(null, Buffer.from(canonicalize(claimOf(claim))), publicKey, Buffer.from(signature, "base64url"));
      } catch {
        return false;
      }
    },
  };
}

/** The keys a ledger publishes (GET /v1/ledger/keys): the current one, then the retired ones. */
export function publishedKeys(
  signer: Pick<Signer, "keyId" | "publicKeyPem" | "publicKeyHex">,
  retired: ReadonlyArray<{ keyId: string; publicKeyPem: string; publicKeyHex: string }>,
): TKeysResponse {
  const key = (k: { keyId: string; publicKeyPem: string; publicKeyHex: string }, current: boolean) => ({
    key_id: k.keyId,
    alg: "Ed25519" as const,
    public_key_pem: k.publicKeyPem,
    public_key_hex: k.publicKeyHex,
    current,
  });
  return { keys: [key(signer, true), ...retired.map((k) => key(k, false))] };
}

/** The keys rotated out of a data dir (public halves), oldest first by file name. */
export function retiredVerifiers(dataDir: string): Array<ReturnType<typeof verifierFromPublicKey>> {
  const dir = join(dataDir, RETIRED_KEYS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".pub.pem"))
    .sort()
    .map((f) => {
      const file = join(dir, f);
      try {
        return verifierFromPublicKey(readFileSync(file));
      } catch (err) {
        throw new DataKeyError(
          `${file} is damaged: it does not hold a public key (${(err as Error).message}). Put back the file from a backup; checkpoints signed with that key cannot be checked without it.`,
        );
      }
    });
}

/** Every key whose checkpoints count in this data dir: the current one and the retired ones. */
export function loadVerifiers(dataDir: string): Verifier[] {
  const current = loadVerifier(dataDir);
  return [...(current ? [current] : []), ...retiredVerifiers(dataDir).filter((v) => v.keyId !== current?.keyId)];
}

/**
 * A rotation stopped half-way (see rotateSigningKey): the new key file is kept when the ledger's
 * last checkpoint was signed with it (the rotation committed) and dropped otherwise.
 */
function finishRotation(dataDir: string, signedWith: string | undefined): void {
  const next = join(dataDir, NEXT_SIGNING_KEY_FILE);
  if (!existsSync(next)) return;
  const nextId = createSigner(createPrivateKey(readFileSync(next))).keyId;
  if (signedWith === nextId) renameSync(next, join(dataDir, SIGNING_KEY_FILE));
  else rmSync(next, { force: true });
}
