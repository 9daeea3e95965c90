import { hash as cryptoHash } from "node:crypto";
import { createBLAKE3 } from "hash-wasm";
import { textLeafHash } from "./merkle/rfc6962.js";

/**
 * Per-tenant hash chain: hash_n = "blake3:" + hex(BLAKE3(prev_hash_n ‖ canonical_n)), both as
 * UTF-8, with a fixed genesis prev_hash. BLAKE3 comes from hash-wasm, a WASM build whose digests
 * are byte-identical to @noble/hashes (tested) and ≈ 14× faster on 1 KB inputs here.
 * The hasher is created once at module load so `chainHash` stays synchronous.
 */
const hasher = await createBLAKE3();

const HASH_PREFIX = "blake3:";
export const GENESIS_HASH = HASH_PREFIX + "0".repeat(64);

// UTF-8 is encoded in native code into one reused buffer: hash-wasm's own string path is ≈ 3×
// slower on 1 KB, and a fresh Buffer per event was garbage. Grown when an input cannot fit.
let scratch = Buffer.allocUnsafe(64 * 1024);

// Lower-case hex of every byte value: the 32 digest bytes become text by table lookup, cheaper
// than hash-wasm's generic hex digest; the same characters ("0"–"9", "a"–"f"), so the same hash.
const HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export function chainHash(prevHash: string, canonical: string): string {
  return hashInto(prevHash, canonical).hash;
}

/**
 * The chain hash and the RFC 6962 leaf hash of the same event from one UTF-8 encoding: the
 * append path needs both, and encoding 1 KB costs as much as hashing it. The leaf input
 * (0x00 ‖ canonical) is the encoded text with the last byte of the ASCII prev_hash overwritten.
 */
export function chainAndLeafHash(prevHash: string, canonical: string): [hash: string, leaf: Buffer] {
  const { hash, start, end } = hashInto(prevHash, canonical);
  if (start === 0) return [hash, textLeafHash(canonical)];
  scratch[start - 1] = 0;
  return [hash, sha256(scratch.subarray(start - 1, end))];
}

const sha256 = (data: Buffer): Buffer => cryptoHash("sha256", data, "buffer");

/** Encodes prev_hash ‖ canonical into the scratch buffer and BLAKE3-hashes it; `start` is where canonical's bytes begin (0 when they were encoded as one string). */
function hashInto(prevHash: string, canonical: string): { hash: string; start: number; end: number } {
  const worst = (prevHash.length + canonical.length) * 3; // UTF-8 bytes per UTF-16 unit ≤ 3
  if (worst > scratch.length) scratch = Buffer.allocUnsafe(worst);
  let n: number;
  let start = 0;
  const last = prevHash.charCodeAt(prevHash.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) {
    // A trailing high surrogate could pair with the canonical text's first unit: encode the
    // concatenation as one string, exactly as before.
    n = scratch.write(prevHash + canonical, 0, "utf8");
  } else {
    n = scratch.write(prevHash, 0, "utf8");
    start = n;
    n += scratch.write(canonical, n, "utf8");
  }
  hasher.init();
  hasher.update(scratch.subarray(0, n));
  const digest = hasher.digest("binary");
  let out = HASH_PREFIX;
  for (let i = 0; i < digest.length; i++) out += HEX[digest[i]!]!;
  return { hash: out, start, end: n };
}
