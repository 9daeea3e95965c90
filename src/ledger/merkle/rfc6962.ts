import { hash } from "node:crypto";

/**
 * The RFC 6962 (Certificate Transparency) Merkle tree, as Go's checksum database and Sigstore's
 * Rekor use it: SHA-256, leaf hash = H(0x00 ‖ leaf), node hash = H(0x01 ‖ left ‖ right), and a
 * tree of n leaves split at the largest power of two below n. Pure functions over 32-byte
 * buffers; where hashes are stored is the caller's business (`NodeReader`).
 */

export const HASH_SIZE = 32;

const sha256 = (data: Buffer): Buffer => hash("sha256", data, "buffer");

/** SHA-256 of nothing: the root of the empty tree. */
export const EMPTY_ROOT = sha256(Buffer.alloc(0));

const ZERO = Buffer.from([0]);

export function leafHash(leaf: Buffer | Uint8Array): Buffer {
  return sha256(Buffer.concat([ZERO, leaf]));
}

// A node's input is always 0x01 ‖ left ‖ right: written into one reused buffer (hashing reads it
// at once), where a concat allocated a new one per node.
const NODE_INPUT = Buffer.alloc(1 + 2 * HASH_SIZE, 1);

function nodeHash(left: Buffer, right: Buffer): Buffer {
  if (left.length !== HASH_SIZE || right.length !== HASH_SIZE)
    return sha256(Buffer.concat([NODE_INPUT.subarray(0, 1), left, right], 1 + 2 * HASH_SIZE));
  left.copy(NODE_INPUT, 1, 0, HASH_SIZE);
  right.copy(NODE_INPUT, 1 + HASH_SIZE, 0, HASH_SIZE);
  return sha256(NODE_INPUT);
}

/**
 * The hash of a complete subtree: `level` 0 is a leaf hash, level L covers the 2^L leaves
 * starting at `index · 2^L`. Every such node is final once its last leaf is appended.
 */
export type NodeReader = (level: number, index: number) => Buffer;

/** The largest power of two strictly below n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isPow2 = (n: number) => n > 0 && (n & (n - 1)) === 0;

/** MTH(D[start:end]) from stored complete subtrees: O(log n) reads for any range. */
export function rangeHash(read: NodeReader, start: number, end: number): Buffer {
  const n = end - start;
  if (n <= 0) return EMPTY_ROOT;
  if (isPow2(n) && start % n === 0) return read(Math.log2(n), start / n);
  const k = splitPoint(n);
  return nodeHash(rangeHash(read, start, start + k), rangeHash(read, start + k, end));
}

/** RFC 6962 §2.1.1 PATH(m, D[0:n]): siblings from the leaf up. */
export function inclusionProof(read: NodeReader, index: number, size: number): Buffer[] {
  if (index < 0 || index >= size) throw new RangeError(`leaf ${index} is not in a tree of size ${size}`);
  const out: Buffer[] = [];
  const walk = (m: number, start: number, end: number) => {
    const n = end - start;
    if (n === 1) return;
    const k = splitPoint(n);
    if (m < k) {
      walk(m, start, start + k);
      out.push(rangeHash(read, start + k, end));
    } else {
      walk(m - k, start + k, end);
      out.push(rangeHash(read, start, start + k));
    }
  };
  walk(index, 0, size);
  return out;
}

/** RFC 6962 §2.1.2 PROOF(m, D[0:n]): what shows the tree of size m is a prefix of the one of size n. */
export function consistencyProof(read: NodeReader, m: number, n: number): Buffer[] {
  if (m < 0 || m > n) throw new RangeError(`no consistency proof from size ${m} to ${n}`);
  const out: Buffer[] = [];
  if (m === 0 || m === n) return out;
  const sub = (m: number, start: number, end: number, whole: boolean) => {
    const n = end - start;
    if (m === n) {
      if (!whole) out.push(rangeHash(read, start, end));
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      sub(m, start, start + k, whole);
      out.push(rangeHash(read, start + k, end));
    } else {
      sub(m - k, start + k, end, false);
      out.push(rangeHash(read, start, start + k));
    }
  };
  sub(m, 0, n, true);
  return out;
}

/** RFC 9162 §2.1.3.2: does `proof` place `leaf` (a leaf hash) at `index` in the tree with `root`? */
export function verifyInclusion(
  leaf: Buffer,
  index: number,
  size: number,
  proof: readonly Buffer[],
  root: Buffer,
): boolean {
  if (index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (p.length !== HASH_SIZE || sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 §2.1.4.2: does `proof` show the tree (m, oldRoot) is a prefix of (n, newRoot)? */
export function verifyConsistency(
  m: number,
  n: number,
  proof: readonly Buffer[],
  oldRoot: Buffer,
  newRoot: Buffer,
): boolean {
  if (m < 0 || m > n) return false;
  if (m === n) return proof.length === 0 && oldRoot.equals(newRoot);
  if (m === 0) return proof.length === 0;
  if (proof.length === 0 || proof.some((p) => p.length !== HASH_SIZE)) return false;
  const path = isPow2(m) ? [oldRoot, ...proof] : [...proof];
  let fn = m - 1;
  let sn = n - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(oldRoot) && sr.equals(newRoot);
}

/**
 * The right edge of a tree: the roots of its complete subtrees, largest (leftmost) first, one
 * per set bit of the size. Appending a leaf merges equal-sized neighbours, which is exactly when
 * a new complete subtree (a node to store) appears.
 */
export type Frontier = readonly Buffer[];

/** Appends leaf hash `leaf` as leaf number `index` (0-based) of a tree whose frontier is `frontier`. */
export function appendLeaf(
  frontier: Frontier,
  index: number,
  leaf: Buffer,
): { frontier: Buffer[]; completed: Buffer[] } {
  const next = frontier.slice();
  const completed = [leaf];
  let h = leaf;
  // Each trailing 1 bit of the index is a left sibling waiting for this leaf.
  for (let i = index; i % 2 === 1; i = Math.floor(i / 2)) {
    h = nodeHash(next.pop()!, h);
    completed.push(h);
  }
  next.push(h);
  return { frontier: next, completed };
}

/** The root of the tree whose right edge is `frontier`: folded right to left, as RFC 6962 splits. */
export function frontierRoot(frontier: Frontier): Buffer {
  if (frontier.length === 0) return EMPTY_ROOT;
  let r = frontier[frontier.length - 1]!;
  for (let i = frontier.length - 2; i >= 0; i--) r = nodeHash(frontier[i]!, r);
  return r;
}

/** The frontier of a tree of `size` leaves, from its stored complete subtrees. */
export function frontierOf(read: NodeReader, size: number): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let level = Math.floor(Math.log2(Math.max(size, 1))); level >= 0; level--) {
    const span = 2 ** level;
    if (size - start >= span) {
      out.push(read(level, start / span));
      start += span;
    }
  }
  return out;
}

// The leaf input is 0x00 then the canonical JSON as UTF-8, written into one reused buffer (the
// append path hashes every event): no concatenation or fresh Buffer per event.
let scratch = Buffer.allocUnsafe(64 * 1024);

/** leafHash(UTF-8 of `text`) without intermediate buffers. */
export function textLeafHash(text: string): Buffer {
  const worst = 1 + text.length * 3;
  if (worst > scratch.length) scratch = Buffer.allocUnsafe(worst);
  scratch[0] = 0;
  const n = scratch.write(text, 1, "utf8");
  return sha256(scratch.subarray(0, 1 + n));
}
