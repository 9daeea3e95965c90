import { createBLAKE3 } from "hash-wasm";

/**
 * Per-tenant hash chain: hash_n = "blake3:" + hex(BLAKE3(prev_hash_n ‖ canonical_n)), both as
 * UTF-8, with a fixed genesis prev_hash. BLAKE3 comes from hash-wasm, a WASM build whose digests
 * are byte-identical to @noble/hashes (tested) and ≈ 14× faster on 1 KB inputs here.
 * The hasher is created once at module load so `chainHash` stays synchronous.
 */
const hasher = await createBLAKE3();

export const HASH_PREFIX = "blake3:";
export const GENESIS_HASH = HASH_PREFIX + "0".repeat(64);

export function chainHash(prevHash: string, canonical: string): string {
  hasher.init();
  // One UTF-8 encode in native code: hash-wasm's own string path is ≈ 3× slower on 1 KB.
  hasher.update(Buffer.from(prevHash + canonical, "utf8"));
  return HASH_PREFIX + hasher.digest("hex");
}
