import type pg from "pg";
import type { TStoredEvent, TUblEvent } from "../../../contracts/events.js";
import { canonicalize } from "../canonical-json.js";
import { chainAndLeafHash } from "../chain.js";
import { envelopeOf } from "../commit-group.js";
import type { Head } from "../head.js";
import { appendLeaf } from "../merkle/rfc6962.js";
import { toStoredEvent } from "../stored-event.js";
import { pgStore, type PgEventRow } from "./store.js";

// Events as rows of `ledger.events`: chained into a row on the way in, read back a page at a time.

/** Rows read per round trip when catching a tenant up or replaying. */
export const PAGE = 1000;

/** Chains and adds one validated event to the tenant's tree; its row goes to `rows`. */
export function writeEvent(event: TUblEvent, head: Head, rows: PgEventRow[], out: TStoredEvent[]): Head {
  const seq = head.seq + 1;
  const envelope = envelopeOf(event, seq);
  const payload = canonicalize(envelope);
  const [hash, leaf] = chainAndLeafHash(head.hash, payload);
  const tree = appendLeaf(head.frontier, head.seq, leaf);
  rows.push({
    tenant_id: envelope.tenant_id,
    tenant_seq: seq,
    event_id: envelope.event_id,
    event_type: envelope.event_type,
    ts: envelope.ts,
    conversation_id: envelope.conversation_id,
    job_id: envelope.job_id ?? null,
    trace_id: envelope.trace_id,
    actor_entity_id: envelope.actor.entity_id,
    actor_type: envelope.actor.actor_type,
    payload,
    prev_hash: head.hash,
    hash,
    merkle: tree.completed.length === 1 ? tree.completed[0]! : Buffer.concat(tree.completed),
  });
  envelope.integrity = { hash, prev_hash: head.hash };
  out.push(envelope as TStoredEvent);
  return { seq, hash, frontier: tree.frontier };
}

/** Streams the stored events of every tenant (or one, after a seq), each tenant in tenant_seq order. */
export async function replayPg(
  pool: pg.Pool,
  onEvent: (event: TStoredEvent) => void,
  opts?: { tenantId?: string; afterTenantSeq?: number },
): Promise<void> {
  const tenants = opts?.tenantId !== undefined ? [opts.tenantId] : (await pgStore.heads(pool)).map((h) => h.tenant_id);
  for (const tenantId of tenants) {
    let after = opts?.tenantId !== undefined ? (opts.afterTenantSeq ?? 0) : 0;
    for (;;) {
      const rows = await pgStore.scanTenant(pool, tenantId, after, PAGE);
      for (const row of rows) onEvent(toStoredEvent(row));
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]![0];
    }
  }
}
