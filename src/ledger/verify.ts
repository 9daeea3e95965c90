import type { TVerifyReport } from "../../contracts/ledger.js";
import { chainHash, GENESIS_HASH } from "./chain.js";
import type { Verifier } from "./signing.js";
import type { CheckpointRow, ScanRow } from "./store.js";

type Break = NonNullable<TVerifyReport["first_break"]>;

/**
 * Recomputes a tenant's chain from genesis and checks every signed checkpoint against it, stopping
 * at the first break: a row whose payload no longer hashes to its stored hash, a broken prev link,
 * a gap in tenant_seq, a payload moved to another position, a checkpoint whose signature fails or
 * whose head hash is not the chain's hash at that seq, or a checkpoint past the last event
 * (events deleted from the end).
 */
export function verifyTenant(
  store: {
    scan(tenantId: string, after: number): IterableIterator<ScanRow>;
    checkpoints(tenantId: string): IterableIterator<CheckpointRow>;
  },
  verifiers: Verifier[],
  tenantId: string,
): TVerifyReport {
  const byKey = new Map(verifiers.map((v) => [v.keyId, v]));
  const cps = store.checkpoints(tenantId);
  let cp: CheckpointRow | undefined = cps.next().value ?? undefined;
  let expected = 1;
  let prev = GENESIS_HASH;
  let eventsChecked = 0;
  let checkpointsChecked = 0;
  let firstBreak: Break | null = null;

  const checkCheckpoint = (c: CheckpointRow, chainHashAtSeq: string): Break | null => {
    const v = byKey.get(c.key_id);
    if (!v?.verifyCheckpoint(c, c.signature)) {
      return {
        tenant_seq: c.tenant_seq,
        reason: "bad_signature",
        message: `Checkpoint at seq:${c.tenant_seq} has an invalid signature (key ${c.key_id})`,
      };
    }
    if (c.head_hash !== chainHashAtSeq) {
      return {
        tenant_seq: c.tenant_seq,
        reason: "checkpoint_mismatch",
        message: `Checkpoint at seq:${c.tenant_seq} signed a different head hash than the chain holds`,
      };
    }
    return null;
  };

  try {
    outer: for (const [seq, payload, prevHash, hash] of store.scan(tenantId, 0)) {
      if (seq !== expected) {
        firstBreak = {
          tenant_seq: expected,
          reason: "missing_event",
          message: `seq:${expected} is missing (next stored is seq:${seq})`,
        };
        break;
      }
      let envelopeSeq: unknown;
      try {
        envelopeSeq = (JSON.parse(payload) as { seq?: unknown }).seq;
      } catch {
        firstBreak = { tenant_seq: seq, reason: "unparseable", message: `seq:${seq} does not hold valid JSON` };
        break;
      }
      if (prevHash !== prev) {
        firstBreak = {
          tenant_seq: seq,
          reason: "prev_hash_mismatch",
          message: `seq:${seq} does not link to the hash of seq:${seq - 1}`,
        };
        break;
      }
      if (chainHash(prevHash, payload) !== hash || envelopeSeq !== seq) {
        firstBreak = {
          tenant_seq: seq,
          reason: "hash_mismatch",
          message: `seq:${seq} does not hash to its stored hash`,
        };
        break;
      }
      eventsChecked++;
      while (cp && cp.tenant_seq <= seq) {
        // A checkpoint below the current seq can only mean one whose seq had no event (seq 0).
        const b = cp.tenant_seq === seq ? checkCheckpoint(cp, hash) : missing(cp.tenant_seq);
        if (b) {
          firstBreak = b;
          break outer;
        }
        checkpointsChecked++;
        cp = cps.next().value ?? undefined;
      }
      prev = hash;
      expected = seq + 1;
    }
    if (!firstBreak && cp) firstBreak = missing(expected);
  } finally {
    cps.return?.();
  }

  return {
    tenant_id: tenantId,
    ok: firstBreak === null,
    events_checked: eventsChecked,
    checkpoints_checked: checkpointsChecked,
    head: expected > 1 ? { tenant_seq: expected - 1, hash: prev } : null,
    first_break: firstBreak,
  };
}

function missing(seq: number): Break {
  return {
    tenant_seq: seq,
    reason: "missing_event",
    message: `seq:${seq} is covered by a signed checkpoint but missing from the table`,
  };
}
