import { describe, expect, it } from "vitest";
import {
  appendLeaf,
  consistencyProof,
  EMPTY_ROOT,
  frontierOf,
  frontierRoot,
  inclusionProof,
  leafHash,
  rangeHash,
  textLeafHash,
  verifyConsistency,
  verifyInclusion,
  type NodeReader,
} from "../../../src/ledger/merkle/rfc6962.js";
import { mth, path, proof, refLeaf } from "./reference.js";

const hex = (b: Buffer) => b.toString("hex");
const h = (s: string) => Buffer.from(s, "hex");

// The Certificate Transparency reference leaves and tree heads (RFC 6962 test data, as used by
// the CT, Trillian and transparency-dev test suites).
const CT_LEAVES = [
  "",
  "00",
  "10",
  "2021",
  "3031",
  "40414243",
  "5051525354555657",
  "606162636465666768696a6b6c6d6e6f",
].map(h);
const CT_ROOTS = [
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
];
const CT_INCLUSION = [
  {
    index: 0,
    size: 8,
    proof: [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  },
  {
    index: 5,
    size: 8,
    proof: [
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
];
const CT_CONSISTENCY = [
  {
    from: 2,
    to: 8,
    proof: [
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  },
  {
    from: 6,
    to: 8,
    proof: [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
  {
    from: 2,
    to: 5,
    proof: [
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  },
];

/** Builds a tree leaf by leaf the way the ledger does and keeps every completed node, as stored. */
function grow(leaves: Buffer[]): { read: NodeReader; roots: Buffer[] } {
  const nodes = new Map<string, Buffer>();
  let frontier: Buffer[] = [];
  const roots = [frontierRoot(frontier)];
  leaves.forEach((leaf, i) => {
    const step = appendLeaf(frontier, i, leafHash(leaf));
    frontier = step.frontier;
    // The node of level L completed by leaf i covers leaves ending at i: index (i + 1) / 2^L − 1.
    for (const [level, node] of step.completed.entries()) nodes.set(`${level}/${(i + 1) / 2 ** level - 1}`, node);
    roots.push(frontierRoot(frontier));
  });
  const read: NodeReader = (level, index) => {
    const n = nodes.get(`${level}/${index}`);
    if (!n) throw new Error(`node ${level}/${index} was never completed`);
    return n;
  };
  return { read, roots };
}

const flip = (b: Buffer, bit: number) => {
  const c = Buffer.from(b);
  c.writeUInt8(c.readUInt8(bit >> 3) ^ (1 << (bit & 7)), bit >> 3);
  return c;
};

describe("the RFC 6962 tree against the published test vectors", () => {
  const { read, roots } = grow(CT_LEAVES);

  it("roots of every size 0..8", () => {
    expect(hex(EMPTY_ROOT)).toBe(CT_ROOTS[0]);
    expect(roots.map(hex)).toEqual(CT_ROOTS);
    for (let n = 1; n <= 8; n++) expect(hex(rangeHash(read, 0, n))).toBe(CT_ROOTS[n]);
  });

  it("inclusion proofs", () => {
    for (const v of CT_INCLUSION) {
      expect(inclusionProof(read, v.index, v.size).map(hex)).toEqual(v.proof);
      expect(
        verifyInclusion(leafHash(CT_LEAVES[v.index]!), v.index, v.size, v.proof.map(h), h(CT_ROOTS[v.size]!)),
      ).toBe(true);
    }
  });

  it("consistency proofs", () => {
    for (const v of CT_CONSISTENCY) {
      expect(consistencyProof(read, v.from, v.to).map(hex)).toEqual(v.proof);
      expect(verifyConsistency(v.from, v.to, v.proof.map(h), h(CT_ROOTS[v.from]!), h(CT_ROOTS[v.to]!))).toBe(true);
    }
  });

  it("leaf hashes of text are of its UTF-8 bytes", () => {
    expect(textLeafHash("é€😀")).toEqual(leafHash(Buffer.from("é€😀", "utf8")));
    expect(hex(textLeafHash(""))).toBe(CT_ROOTS[1]);
  });
});

describe("every size 1..300 against a naive implementation of the RFC", () => {
  const leaves = Array.from({ length: 300 }, (_, i) => Buffer.from(`{"seq":${i + 1},"x":"${"é".repeat(i % 7)}"}`));
  const { read, roots } = grow(leaves);
  const refRoots = [mth([])];
  for (let n = 1; n <= 300; n++) refRoots.push(mth(leaves.slice(0, n)));

  it("the incremental root and the stored-node root equal MTH for every size", () => {
    for (let n = 0; n <= 300; n++) {
      expect(roots[n]).toEqual(refRoots[n]);
      expect(rangeHash(read, 0, n)).toEqual(refRoots[n]);
      expect(frontierRoot(frontierOf(read, n))).toEqual(refRoots[n]);
    }
  });

  it("every leaf's inclusion proof in every tree size equals PATH and verifies", () => {
    for (let n = 1; n <= 300; n++) {
      // Every leaf up to size 64; past it the first, the last and every 7th (all 45,150 pairs
      // took most of a minute and find nothing the sample does not).
      for (let m = 0; m < n; m++) {
        if (n > 64 && m % 7 !== 0 && m !== n - 1) continue;
        const p = inclusionProof(read, m, n);
        if (n <= 64 || m % 17 === 0 || m === n - 1) expect(p).toEqual(path(m, leaves.slice(0, n)));
        expect(verifyInclusion(refLeaf(leaves[m]!), m, n, p, refRoots[n]!)).toBe(true);
      }
    }
  });

  it("consistency proofs for every pair up to 64 and random pairs up to 300 equal PROOF and verify", () => {
    const pairs: Array<[number, number]> = [];
    for (let n = 1; n <= 64; n++) for (let m = 1; m <= n; m++) pairs.push([m, n]);
    let seed = 7;
    const rnd = (max: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), 1 + (seed % max));
    for (let i = 0; i < 500; i++) {
      const n = rnd(300);
      pairs.push([rnd(n), n]);
    }
    for (const [m, n] of pairs) {
      const p = consistencyProof(read, m, n);
      expect(p).toEqual(proof(m, leaves.slice(0, n)));
      expect(verifyConsistency(m, n, p, refRoots[m]!, refRoots[n]!)).toBe(true);
    }
  });
});

describe("mutations fail verification", () => {
  const leaves = Array.from({ length: 77 }, (_, i) => Buffer.from(`leaf ${i}`));
  const { read, roots } = grow(leaves);

  it("any flipped bit in the leaf, a proof hash or the root; a wrong index or size", () => {
    for (const [m, n] of [
      [0, 1],
      [3, 8],
      [40, 77],
      [76, 77],
    ] as const) {
      const leaf = leafHash(leaves[m]!);
      const p = inclusionProof(read, m, n);
      const root = roots[n]!;
      expect(verifyInclusion(leaf, m, n, p, root)).toBe(true);
      for (let bit = 0; bit < 256; bit += 37) {
        expect(verifyInclusion(flip(leaf, bit), m, n, p, root)).toBe(false);
        expect(verifyInclusion(leaf, m, n, p, flip(root, bit))).toBe(false);
        for (let i = 0; i < p.length; i++) {
          const bad = p.map((x, j) => (j === i ? flip(x, bit) : x));
          expect(verifyInclusion(leaf, m, n, bad, root)).toBe(false);
        }
      }
      if (n > 1) {
        expect(verifyInclusion(leaf, m ^ 1, n, p, root)).toBe(false);
        // (The size is bound by the signed checkpoint, not the proof: a size whose path has the
        // same shape verifies too, as in every RFC 6962 implementation. A longer path does not.)
        expect(verifyInclusion(leaf, m, 2 * n + 1, p, root)).toBe(false);
        expect(verifyInclusion(leaf, m, n, p.slice(1), root)).toBe(false);
        expect(verifyInclusion(leaf, m, n, [...p, p[0]!], root)).toBe(false);
      }
      expect(verifyInclusion(leaf, n, n, p, root)).toBe(false);
    }
  });

  it("consistency: flipped bits in either root or any proof hash, wrong sizes", () => {
    for (const [m, n] of [
      [1, 2],
      [5, 8],
      [13, 77],
      [64, 77],
    ] as const) {
      const p = consistencyProof(read, m, n);
      expect(verifyConsistency(m, n, p, roots[m]!, roots[n]!)).toBe(true);
      for (let bit = 0; bit < 256; bit += 41) {
        expect(verifyConsistency(m, n, p, flip(roots[m]!, bit), roots[n]!)).toBe(false);
        expect(verifyConsistency(m, n, p, roots[m]!, flip(roots[n]!, bit))).toBe(false);
        for (let i = 0; i < p.length; i++) {
          const bad = p.map((x, j) => (j === i ? flip(x, bit) : x));
          expect(verifyConsistency(m, n, bad, roots[m]!, roots[n]!)).toBe(false);
        }
      }
      expect(verifyConsistency(m + 1, n, p, roots[m + 1]!, roots[n]!)).toBe(false);
      expect(verifyConsistency(m, n, p.slice(0, -1), roots[m]!, roots[n]!)).toBe(false);
    }
    // A history that does not extend the old one: same size, different root.
    expect(verifyConsistency(8, 8, [], roots[8]!, roots[9]!)).toBe(false);
  });
});
