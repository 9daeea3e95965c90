import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { blake3 } from "@noble/hashes/blake3.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { createHash } from "node:crypto";
import { chainAndLeafHash, chainHash, GENESIS_HASH } from "../../src/ledger/chain.js";

const noble = (prev: string, canonical: string) => `blake3:${bytesToHex(blake3(utf8ToBytes(prev + canonical)))}`;

describe("chainHash", () => {
  it("is byte-identical to @noble/hashes' BLAKE3 over prev_hash ‖ canonical JSON", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 3000 }), (s) => {
        expect(chainHash(GENESIS_HASH, s)).toBe(noble(GENESIS_HASH, s));
      }),
      { numRuns: 300 },
    );
  });

  it("stays identical for any previous hash text and for inputs larger than the reused buffer", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.string({ unit: "binary", maxLength: 200 }),
        (prev, s) => {
          expect(chainHash(prev, s)).toBe(noble(prev, s));
        },
      ),
      { numRuns: 500 },
    );
    expect(chainHash("x\ud83d", "\ude00y")).toBe(noble("x\ud83d", "\ude00y"));
    const big = "é€😀".repeat(30_000);
    expect(chainHash(GENESIS_HASH, big)).toBe(noble(GENESIS_HASH, big));
    expect(chainHash(GENESIS_HASH, "{}")).toBe(noble(GENESIS_HASH, "{}"));
  });

  it("matches the BLAKE3 reference digest of the empty input", () => {
    expect(chainHash("", "")).toBe("blake3:af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
  });

  it("depends on the previous hash", () => {
    expect(chainHash(GENESIS_HASH, "{}")).not.toBe(chainHash(chainHash(GENESIS_HASH, "{}"), "{}"));
  });
});

describe("chainAndLeafHash", () => {
  const leaf = (s: string) =>
    createHash("sha256")
      .update(Buffer.concat([Buffer.from([0]), Buffer.from(s, "utf8")]))
      .digest();

  it("gives the chain hash and SHA-256(0x00 ‖ UTF-8) from one encoding, for any input", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.string({ unit: "binary", maxLength: 300 }),
        (prev, s) => {
          const [hash, l] = chainAndLeafHash(prev, s);
          expect(hash).toBe(noble(prev, s));
          expect(l).toEqual(leaf(s));
        },
      ),
      { numRuns: 500 },
    );
    for (const [prev, s] of [
      ["", "{}"],
      ["x\ud83d", "\ude00y"],
      [GENESIS_HASH, "é€😀".repeat(30_000)],
    ] as const) {
      expect(chainAndLeafHash(prev, s)).toEqual([noble(prev, s), leaf(s)]);
    }
  });
});
