import type { z } from "zod";
import type { ZHandOverRequest } from "../../../contracts/people.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { memberJob } from "../conversations/conversations.js";

/**
 * "Hand over to ‹person›": Office writes it (the job's events are Office's to write) — the
 * `job.handed_over`, a line in the conversation in the giver's language and the card that
 * replaces the agent's, in one batch. Who may hand a job over is the policy pack's call; a
 * refusal comes back as its code. The idempotency record is kept in that same commit.
 */
export async function handOver(
  core: Core,
  p: Principal,
  jobId: string,
  body: z.infer<typeof ZHandOverRequest>,
  idem?: IdemScope,
): Promise<StoredResponse> {
  const job = memberJob(core, p, jobId);
  let stored: StoredResponse | undefined;
  const r = await core.office.handOver(
    {
      tenant_id: p.tenantId,
      trace_id: core.ids("trc"),
      job_id: job.job_id,
      actor_entity_id: p.entityId,
      to_entity_id: body.to_entity_id,
      ...(body.note ? { note: body.note } : {}),
    },
    {
      withinCommit: (res, tx) => {
        stored = {
          status: 200,
          body: { job_id: jobId, owner_entity_id: body.to_entity_id, created_event_ids: res.accepted_event_ids },
        };
        if (idem) return core.idem.record(idem, stored, tx);
      },
    },
  );
  return (
    stored ?? { status: 200, body: { job_id: jobId, owner_entity_id: r.owner_entity_id, created_event_ids: r.ids } }
  );
}
