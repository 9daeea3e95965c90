import type { TReceipt } from "../../../contracts/ledger.js";
import type { LedgerDoorApi } from "../../ledger/index.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { memberJob } from "../conversations/conversations.js";
import type { Core } from "../core.js";
import { eventFilterFor } from "../visibility.js";

/** Most events one receipt carries (a job with more is refused with a clear error, not cut short). */
const MAX_RECEIPT_EVENTS = 1000;

/**
 * One job's receipt: the tenant's current signed checkpoint, the verifier keys, and for every
 * event of the job the caller may read, its leaf bytes and its inclusion proof against that
 * checkpoint. Everything in it is what the ledger holds (sensitive values only as their
 * redactions), so it can be checked offline with the verifier key alone.
 */
export async function jobReceipt(core: Core, p: Principal, jobId: string): Promise<TReceipt> {
  memberJob(core, p, jobId);
  const ledger: LedgerDoorApi = core.ledger;
  const cp = await ledger.tlog.checkpointNote(p.tenantId);
  if (!cp) throw new AppError("NOT_FOUND", "The log has no checkpoint yet");
  const visible = eventFilterFor(core, p);
  const events: TReceipt["events"] = [];
  let after: string | undefined;
  do {
    const page = await ledger.query({
      tenant_id: p.tenantId,
      job_id: jobId,
      limit: 1000,
      ...(after ? { after_cursor: after } : {}),
    });
    for (const e of page.events) {
      const seq = e.seq!;
      if (seq > cp.size || (visible && !visible(e))) continue;
      if (events.length >= MAX_RECEIPT_EVENTS)
        throw new AppError(
          "VALIDATION_ERROR",
          `A receipt holds at most ${MAX_RECEIPT_EVENTS} events; this job has more`,
        );
      const [leaf] = await ledger.tlog.leaves(p.tenantId, seq, seq);
      events.push({
        tenant_seq: seq,
        event_type: e.event_type,
        leaf: Buffer.from(leaf!, "utf8").toString("base64"),
        proof: (await ledger.tlog.inclusion(p.tenantId, seq, cp.size)).hashes,
      });
    }
    after = page.next_cursor ?? undefined;
  } while (after);
  return {
    format: "logline-receipt/v1",
    tenant_id: p.tenantId,
    job_id: jobId,
    checkpoint: cp.note,
    verifier_keys: await ledger.tlog.verifierKeys(),
    events,
  };
}
