import { blake3 } from "@noble/hashes/blake3.js";

/** Letters-only digest: deterministic ids that no PII scanner can read as a phone number. */
export function letterHash(s: string, n = 16): string {
  const h = blake3(new TextEncoder().encode(s));
  let out = "";
  for (let i = 0; i < n; i++) out += String.fromCharCode(97 + (h[i]! % 26));
  return out;
}
