import { AppError } from "../../shared/errors.js";
import type { Head } from "../head.js";
import type { LedgerStore } from "../store.js";
import { checkpointText, signNote, verifierKey } from "./note.js";
import { consistencyProof, frontierRoot, inclusionProof, rangeHash } from "./rfc6962.js";
import { nodeReader } from "./tree-store.js";

export interface TransparencyLogDeps {
  store: Pick<LedgerStore, "merkleAt" | "payloads">;
  heads: ReadonlyMap<string, Head>;
  /** The key name in signed notes and the first part of every origin (`<log name>/<tenant_id>`). */
  logName: string;
  signer: { publicKeyHex: string; signBytes(message: Buffer): Buffer };
  /** Public keys (hex) rotated out: their verifier keys stay published. */
  retiredPublicKeys: readonly string[];
}

/** Most leaves one `leaves` request returns. */
const MAX_LEAVES = 1000;

/**
 * Each tenant's events as an RFC 6962 log: signed checkpoints (C2SP signed notes), inclusion
 * and consistency proofs, and the exact leaf bytes. Everything is read from the nodes stored
 * with the events; the root of the current tree comes from the in-memory frontier.
 */
export function createTransparencyLog(deps: TransparencyLogDeps) {
  const { store, heads, logName } = deps;
  const publicKey = Buffer.from(deps.signer.publicKeyHex, "hex");
  const origin = (tenantId: string) => `${logName}/${tenantId}`;
  // One signature per tenant and tree size: polling clients do not cost a signature each.
  const notes = new Map<string, { size: number; note: string }>();

  const sizeOf = (tenantId: string) => heads.get(tenantId)?.seq ?? 0;

  function checkSize(tenantId: string, size: number, what: string): void {
    if (!Number.isSafeInteger(size) || size < 1)
      throw new AppError("VALIDATION_ERROR", `${what} must be a whole number from 1`, { field: what });
    const current = sizeOf(tenantId);
    if (size > current)
      throw new AppError(
        "NOT_FOUND",
        `The log of ${tenantId} has ${current} events; there is no tree of size ${size}`,
        { field: what },
      );
  }

  const b64 = (hashes: Buffer[]) => hashes.map((h) => h.toString("base64"));

  return {
    origin,

    /** The verifier keys in signed-note form: the current key first, then retired ones. */
    verifierKeys(): string[] {
      return [publicKey, ...deps.retiredPublicKeys.map((hex) => Buffer.from(hex, "hex"))].map((k) =>
        verifierKey(logName, k),
      );
    },

    /** The tenant's current tree as a signed `tlog-checkpoint` note; null for an empty log. */
    checkpointNote(tenantId: string): { size: number; root: Buffer; note: string } | null {
      const head = heads.get(tenantId);
      if (!head || head.seq === 0) return null;
      const root = frontierRoot(head.frontier);
      const cached = notes.get(tenantId);
      if (cached?.size === head.seq) return { size: head.seq, root, note: cached.note };
      const note = signNote(
        checkpointText({ origin: origin(tenantId), size: head.seq, root }),
        logName,
        publicKey,
        (m) => deps.signer.signBytes(m),
      );
      notes.set(tenantId, { size: head.seq, note });
      return { size: head.seq, root, note };
    },

    /** The root of the tree of the tenant's first `size` events. */
    rootAt(tenantId: string, size: number): Buffer {
      checkSize(tenantId, size, "size");
      return rangeHash(nodeReader(store, tenantId), 0, size);
    },

    /** Where event `seq` sits in the tree of `size` leaves (default: the current tree). */
    inclusion(
      tenantId: string,
      seq: number,
      size = sizeOf(tenantId),
    ): { leaf_index: number; tree_size: number; hashes: string[] } {
      checkSize(tenantId, size, "size");
      if (!Number.isSafeInteger(seq) || seq < 1 || seq > size)
        throw new AppError("VALIDATION_ERROR", `seq must be from 1 to the tree size (${size})`, { field: "seq" });
      return {
        leaf_index: seq - 1,
        tree_size: size,
        hashes: b64(inclusionProof(nodeReader(store, tenantId), seq - 1, size)),
      };
    },

    /** That the tree of `from` leaves is a prefix of the tree of `to` leaves. */
    consistency(tenantId: string, from: number, to: number): { from: number; to: number; hashes: string[] } {
      checkSize(tenantId, to, "to");
      if (!Number.isSafeInteger(from) || from < 1 || from > to)
        throw new AppError("VALIDATION_ERROR", "from must be from 1 to `to`", { field: "from" });
      return { from, to, hashes: b64(consistencyProof(nodeReader(store, tenantId), from, to)) };
    },

    /** The exact leaf bytes (the stored canonical JSON) of events start..end inclusive. */
    leaves(tenantId: string, start: number, end: number): string[] {
      checkSize(tenantId, end, "end");
      if (!Number.isSafeInteger(start) || start < 1 || start > end)
        throw new AppError("VALIDATION_ERROR", "start must be from 1 to end", { field: "start" });
      if (end - start + 1 > MAX_LEAVES)
        throw new AppError("VALIDATION_ERROR", `At most ${MAX_LEAVES} leaves per request`, { field: "end" });
      return store.payloads(tenantId, start, end);
    },
  };
}

export type TransparencyLog = ReturnType<typeof createTransparencyLog>;
