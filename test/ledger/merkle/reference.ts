import { createHash } from "node:crypto";

/**
 * A deliberately naive RFC 6962 tree, written straight from the RFC's recursive definitions
 * (MTH, PATH, PROOF/SUBPROOF) over an array of leaves: the oracle the stored tree is checked
 * against. It shares no code with src/ledger/merkle.
 */
const sha = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
const k = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);

export const refLeaf = (d: Buffer) => sha(Buffer.from([0]), d);

/**
 * MTH as the RFC defines it, remembered per run of leaves: the proofs ask for the same subtrees
 * thousands of times. A run is named by the identities of its leaf buffers, which the tests
 * never change once made, so a remembered hash is always the hash of those bytes.
 */
const ids = new WeakMap<Buffer, number>();
const known = new Map<string, Buffer>();
let nextId = 0;
const idOf = (b: Buffer) => {
  let id = ids.get(b);
  if (id === undefined) ids.set(b, (id = nextId++));
  return id;
};

export function mth(d: Buffer[]): Buffer {
  if (d.length === 0) return sha();
  if (d.length === 1) return refLeaf(d[0]!);
  const key = d.map(idOf).join(",");
  let hash = known.get(key);
  if (!hash) {
    const s = k(d.length);
    hash = sha(Buffer.from([1]), mth(d.slice(0, s)), mth(d.slice(s)));
    known.set(key, hash);
  }
  return hash;
}

export function path(m: number, d: Buffer[]): Buffer[] {
  if (d.length <= 1) return [];
  const s = k(d.length);
  return m < s ? [...path(m, d.slice(0, s)), mth(d.slice(s))] : [...path(m - s, d.slice(s)), mth(d.slice(0, s))];
}

function subproof(m: number, d: Buffer[], b: boolean): Buffer[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const s = k(d.length);
  return m <= s
    ? [...subproof(m, d.slice(0, s), b), mth(d.slice(s))]
    : [...subproof(m - s, d.slice(s), false), mth(d.slice(0, s))];
}

export const proof = (m: number, d: Buffer[]) => subproof(m, d, true);
