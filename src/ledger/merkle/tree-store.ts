import type { LedgerStore } from "../store.js";
import { appendLeaf, frontierOf, HASH_SIZE, textLeafHash, type NodeReader } from "./rfc6962.js";

/**
 * Where the tree's nodes live: one ledger_tree row per event. The row of leaf i (tenant_seq
 * i + 1) holds its leaf hash and every node it completes, lowest level first, so node (level L,
 * index j) is at bytes 32·L of the row of tenant_seq (j + 1)·2^L. One small row per event on the
 * append path, and a proof is O(log² n) indexed reads.
 */
export function nodeReader(store: Pick<LedgerStore, "merkleAt">, tenantId: string): NodeReader {
  return (level, index) => {
    const seq = (index + 1) * 2 ** level;
    const row = store.merkleAt(tenantId, seq);
    if (!row || row.length < (level + 1) * HASH_SIZE)
      throw new Error(`tree node ${level}/${index} of ${tenantId} is missing`);
    return row.subarray(level * HASH_SIZE, (level + 1) * HASH_SIZE);
  };
}

/**
 * Fills in the tree hashes of rows written before the tree existed (once, at boot, in order),
 * then returns the tenant's frontier at `size`. A row whose stored hashes disagree with its
 * payload stops the boot: the tree would prove something the log does not say.
 */
export function loadFrontier(store: LedgerStore, tenantId: string, size: number): Buffer[] {
  if (size === 0) return [];
  const head = store.merkleAt(tenantId, size);
  if (head) return frontierOf(nodeReader(store, tenantId), size);
  let frontier: Buffer[] = [];
  const fills: Array<[number, Buffer]> = [];
  for (const [seq, payload, merkle] of store.treeRows(tenantId)) {
    const step = appendLeaf(frontier, seq - 1, textLeafHash(payload));
    frontier = step.frontier;
    const bytes = Buffer.concat(step.completed);
    if (merkle && !merkle.equals(bytes))
      throw new Error(`stored tree hashes of ${tenantId} #${seq} do not match its event`);
    if (!merkle) fills.push([seq, bytes]);
  }
  for (const [seq, bytes] of fills) store.fillMerkle(tenantId, seq, bytes);
  return frontier;
}
