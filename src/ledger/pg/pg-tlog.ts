import type pg from "pg";
import type { Head } from "../head.js";
import type { LedgerDoorApi } from "../ledger-api.js";
import { createTransparencyLog } from "../merkle/log.js";
import type { Signer } from "../signing.js";
import { pgStore } from "./store.js";

/**
 * The Merkle log of a PostgreSQL ledger: the same proofs and notes as the SQLite one, its nodes
 * and leaves fetched from the database for each read.
 */
export function createPgTransparencyLog(opts: {
  pool: pg.Pool;
  heads: Map<string, Head>;
  /** The log's name in signed checkpoints (default logline.local). */
  logName?: string | undefined;
  signer: Signer;
  /** Keys rotated out: the checkpoints they signed still verify. */
  retired: Array<{ publicKeyHex: string }>;
}): LedgerDoorApi["tlog"] {
  // The Merkle log reads nodes and leaves through a store that answers synchronously. Each read
  // runs twice: once to learn which rows it touches (the proofs' shapes depend on indices only,
  // never on hash values), then, once those rows are fetched, for real.
  type Reading =
    | { dry: true; nodes: Set<number>; range: [number, number] | null }
    | { dry: false; nodes: Map<number, Buffer>; payloads: string[] };
  let reading: Reading | null = null;
  const BLANK = Buffer.alloc(32 * 64);
  const tlogStore = {
    merkleAt(_tenantId: string, seq: number): Buffer | undefined {
      if (!reading) throw new Error("tree read outside a fetch");
      if (reading.dry) return (reading.nodes.add(seq), BLANK);
      return reading.nodes.get(seq);
    },
    payloads(_tenantId: string, from: number, to: number): string[] {
      if (!reading) throw new Error("leaf read outside a fetch");
      if (reading.dry) return ((reading.range = [from, to]), []);
      return reading.payloads;
    },
  };
  const syncLog = createTransparencyLog({
    store: tlogStore,
    heads: opts.heads,
    logName: opts.logName ?? "logline.local",
    signer: opts.signer,
    retiredPublicKeys: opts.retired.map((k) => k.publicKeyHex),
  });
  async function fetched<R>(tenantId: string, f: () => R): Promise<R> {
    const want: Reading = { dry: true, nodes: new Set(), range: null };
    reading = want;
    try {
      f();
    } finally {
      reading = null;
    }
    const [nodes, payloads] = await Promise.all([
      pgStore.merkle(opts.pool, tenantId, [...want.nodes]),
      want.range ? pgStore.payloads(opts.pool, tenantId, want.range[0], want.range[1]) : Promise.resolve([]),
    ]);
    reading = { dry: false, nodes, payloads };
    try {
      return f();
    } finally {
      reading = null;
    }
  }
  return {
    origin: syncLog.origin,
    verifierKeys: syncLog.verifierKeys,
    checkpointNote: syncLog.checkpointNote,
    rootAt: (t, size) => fetched(t, () => syncLog.rootAt(t, size)),
    inclusion: (t, seq, size) => fetched(t, () => syncLog.inclusion(t, seq, size)),
    consistency: (t, from, to) => fetched(t, () => syncLog.consistency(t, from, to)),
    leaves: (t, start, end) => fetched(t, () => syncLog.leaves(t, start, end)),
  };
}
