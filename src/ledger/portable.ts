import type { TStoredEvent } from "../../contracts/events.js";
import type { Db } from "../shared/db.js";
import { canonicalize } from "./canonical-json.js";
import { GENESIS_HASH, chainHash } from "./chain.js";
import type { LedgerApi } from "./ledger-api.js";
import { createLedgerStore } from "./store.js";
import { toStoredEvent } from "./stored-event.js";

/**
 * The ledger's portable format for tools outside the running server (export, import, backup
 * checks): stored events exactly as the ledger serves them, read and checked here so that no
 * other module needs to know the table, the chain hash or the key format.
 */

export { GENESIS_HASH };

/** How many events a tenant has in a ledger database (0 when none). */
export function countTenantEvents(db: Db, tenantId: string): number {
  return db.prepare("SELECT COUNT(*) FROM ledger_events WHERE tenant_id = ?").pluck().get(tenantId) as number;
}

/**
 * A tenant's stored events in tenant_seq order, read inside one read transaction so the result
 * is a consistent snapshot even while another process appends (WAL). The transaction ends when
 * the iteration does (also on `break` or a throw).
 */
export function* readTenantEvents(db: Db, tenantId: string): Generator<TStoredEvent> {
  const store = createLedgerStore(db);
  db.exec("BEGIN");
  try {
    for (const row of store.scan(tenantId, 0)) yield toStoredEvent(row);
  } finally {
    db.exec("COMMIT");
  }
}

export type ChainCheck = { ok: true } | { ok: false; reason: "unlinked" | "hash_mismatch" };

/**
 * Checks a sequence of stored events link into one chain from genesis: each `prev_hash` is the
 * previous hash and each hash recomputes from its envelope. Used on files, before any write.
 */
export function createChainChecker(): { check(e: TStoredEvent): ChainCheck; head(): string } {
  let prev = GENESIS_HASH;
  return {
    check(e) {
      const { integrity, ...envelope } = e;
      if (!integrity || integrity.prev_hash !== prev) return { ok: false, reason: "unlinked" };
      if (chainHash(prev, canonicalize(envelope)) !== integrity.hash) return { ok: false, reason: "hash_mismatch" };
      prev = integrity.hash;
      return { ok: true };
    },
    head: () => prev,
  };
}

/**
 * Appends a tenant's checked events to a ledger where that tenant has none, through the normal
 * append (policy pack included), in batches. The envelopes are kept and seq reassigned from 1, so
 * the chain comes out hash for hash; ending on another head, or failing verify, throws.
 */
export async function importVerifiedEvents(
  ledger: LedgerApi,
  tenantId: string,
  events: readonly TStoredEvent[],
  opts: { batch?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ events: number; head: string }> {
  if (ledger.head(tenantId).tenant_seq > 0)
    throw new Error(`Tenant ${tenantId} already has events; import only into a ledger without it`);
  const checker = createChainChecker();
  for (const e of events) {
    if (e.tenant_id !== tenantId || !checker.check(e).ok)
      throw new Error(`event seq ${e.seq} does not belong to one verified chain of ${tenantId}`);
  }
  const size = opts.batch ?? 500;
  for (let i = 0; i < events.length; i += size) {
    const batch = events.slice(i, i + size).map(({ integrity: _i, seq: _s, ...envelope }) => envelope);
    try {
      await ledger.append({ tenant_id: tenantId, events: batch });
    } catch (err) {
      throw new Error(`import stopped at seq ${i + 1}..${i + batch.length}: ${(err as Error).message}`, { cause: err });
    }
    opts.onProgress?.(Math.min(i + size, events.length), events.length);
  }
  const head = ledger.head(tenantId);
  if (head.hash !== checker.head())
    throw new Error(`imported chain ends on ${head.hash}, the source on ${checker.head()}`);
  const report = ledger.verify(tenantId);
  if (!report.ok) throw new Error(`imported ledger does not verify: ${report.first_break?.message}`);
  return { events: events.length, head: head.hash };
}
