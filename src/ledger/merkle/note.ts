import { createPublicKey, hash, verify as edVerify, type KeyObject } from "node:crypto";

/**
 * C2SP signed notes and `tlog-checkpoint` bodies, the format of Go's checksum database and
 * Sigstore's Rekor, so generic tools can check LogLine's checkpoints:
 *
 *   <origin>\n<tree size>\n<base64 root hash>\n
 *   \n
 *   — <key name> <base64(4-byte key id ‖ Ed25519 signature of the text above the blank line)>\n
 *
 * key id = first 4 bytes of SHA-256(key name ‖ "\n" ‖ 0x01 ‖ 32-byte public key); the verifier
 * key is `<name>+<8 hex digits of the key id>+<base64(0x01 ‖ public key)>`.
 */

const ED25519 = 0x01;
const DASH = "\u2014 ";
/** A key name: no spaces, no `+` (the verifier key's separator). */
const NAME = /^[^\s+]+$/;

export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
}

export interface NoteSignature {
  name: string;
  keyId: number;
  signature: Buffer;
}

export interface NoteVerifier {
  name: string;
  keyId: number;
  publicKey: Buffer;
}

export function keyIdOf(name: string, publicKey: Buffer): number {
  return hash(
    "sha256",
    Buffer.concat([Buffer.from(`${name}\n`, "utf8"), Buffer.from([ED25519]), publicKey]),
    "buffer",
  ).readUInt32BE(0);
}

/** The published form of a verifier key. */
export function verifierKey(name: string, publicKey: Buffer): string {
  if (!NAME.test(name)) throw new Error(`invalid key name ${JSON.stringify(name)}`);
  const id = keyIdOf(name, publicKey).toString(16).padStart(8, "0");
  return `${name}+${id}+${Buffer.concat([Buffer.from([ED25519]), publicKey]).toString("base64")}`;
}

/** Reads a verifier key line; throws on anything that is not an Ed25519 key of that exact form. */
export function parseVerifierKey(line: string): NoteVerifier {
  // The name and id hold no `+`; the base64 key may.
  const m = /^([^+]*)\+([^+]*)\+(.*)$/.exec(line.trim());
  if (!m) throw new Error("a verifier key is <name>+<key id>+<key>");
  const [, name, hex, b64] = m as unknown as [string, string, string, string];
  if (!NAME.test(name)) throw new Error("invalid key name");
  if (!/^[0-9a-f]{8}$/.test(hex)) throw new Error("the key id is 8 lower-case hex digits");
  const raw = Buffer.from(b64, "base64");
  if (raw.length !== 33 || raw[0] !== ED25519 || raw.toString("base64") !== b64)
    throw new Error("only Ed25519 keys (type 0x01, 32 bytes) are known");
  const publicKey = raw.subarray(1);
  const keyId = Number.parseInt(hex, 16);
  if (keyIdOf(name, publicKey) !== keyId) throw new Error("the key id does not match the name and key");
  return { name, keyId, publicKey };
}

export function checkpointText(c: Checkpoint): string {
  return `${c.origin}\n${c.size}\n${c.root.toString("base64")}\n`;
}

/** Signs `text` (which must end in a newline) as `name`; `sign` is the Ed25519 signing function. */
export function signNote(text: string, name: string, publicKey: Buffer, sign: (message: Buffer) => Buffer): string {
  if (!text.endsWith("\n")) throw new Error("a note's text ends with a newline");
  const sig = Buffer.alloc(4 + 64);
  sig.writeUInt32BE(keyIdOf(name, publicKey), 0);
  sign(Buffer.from(text, "utf8")).copy(sig, 4);
  return `${text}\n${DASH}${name} ${sig.toString("base64")}\n`;
}

/** Splits a signed note into its text and signature lines (it does not check signatures). */
export function parseNote(note: string): { text: string; signatures: NoteSignature[] } {
  const at = note.lastIndexOf("\n\n");
  if (at < 0 || !note.endsWith("\n")) throw new Error("a signed note is text, a blank line, then signature lines");
  const text = note.slice(0, at + 1);
  const signatures = note
    .slice(at + 2, -1)
    .split("\n")
    .map((line) => {
      const m = /^\u2014 (\S+) (\S+)$/.exec(line);
      if (!m) throw new Error("malformed signature line");
      const raw = Buffer.from(m[2]!, "base64");
      if (raw.length < 5) throw new Error("signature too short");
      return { name: m[1]!, keyId: raw.readUInt32BE(0), signature: raw.subarray(4) };
    });
  if (signatures.length === 0) throw new Error("the note has no signature");
  return { text, signatures };
}

function keyObject(publicKey: Buffer): KeyObject {
  // SPKI DER for Ed25519: a fixed 12-byte header before the 32 key bytes.
  return createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), publicKey]),
    format: "der",
    type: "spki",
  });
}

/** The note's text when one of its signatures is by `verifier`, else null. */
export function openNote(note: string, verifier: NoteVerifier): string | null {
  const { text, signatures } = parseNote(note);
  const key = keyObject(verifier.publicKey);
  for (const s of signatures) {
    if (s.name !== verifier.name || s.keyId !== verifier.keyId || s.signature.length !== 64) continue;
    if (edVerify(null, Buffer.from(text, "utf8"), key, s.signature)) return text;
  }
  return null;
}

/** Reads a `tlog-checkpoint` body (extension lines after the root are allowed and ignored). */
export function parseCheckpoint(text: string): Checkpoint {
  const lines = text.split("\n");
  if (lines.length < 4 || lines.at(-1) !== "")
    throw new Error("a checkpoint has an origin, a size and a root hash, one per line");
  const [origin, size, root] = lines as [string, string, string];
  if (origin === "" || !/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size)))
    throw new Error("invalid checkpoint origin or size");
  const r = Buffer.from(root, "base64");
  if (r.length !== 32 || r.toString("base64") !== root) throw new Error("the root hash is 32 bytes in standard base64");
  return { origin, size: Number(size), root: r };
}
