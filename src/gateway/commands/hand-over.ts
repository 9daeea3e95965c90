import type { z } from "zod";
import type { ZHandOverRequest } from "../../../contracts/people.js";
import { ACTIVE_JOB_STATES } from "../../../contracts/primitives.js";
import { AppError } from "../../shared/errors.js";
import { pickLocale, translator } from "../../shared/i18n.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { displayName } from "../projections/state.js";
import { memberJob } from "./conversations.js";

/**
 * "Hand over to ‹person›": a `job.handed_over` written by the person who clicked, and a system
 * line in the job's conversation saying so, in one batch — the line exists only if the hand-over
 * does. Who may hand a job over (who asked for it, an approver, an admin, or its holder) is the
 * policy pack's call; a refusal comes back as its code. The line is in the language of the person
 * who handed it over (their profile's, else the workspace default).
 */
export async function handOverJob(core: Core, p: Principal, jobId: string, body: z.infer<typeof ZHandOverRequest>, idem?: IdemScope): Promise<StoredResponse> {
  const me = core.me(p);
  const state = core.tenant(p.tenantId);
  const job = memberJob(core, p, jobId);
  if (!(ACTIVE_JOB_STATES as readonly string[]).includes(job.state)) {
    throw new AppError("ILLEGAL_JOB_TRANSITION", `The job is ${job.state.replace("_", " ")}; only an open job can be handed over`, { state: job.state });
  }
  const to = state.entities.get(body.to_entity_id);
  const conv = state.conversations.get(job.conversation_id);
  if (to?.actor_type !== "human" || !conv?.participants.has(to.entity_id)) {
    throw new AppError("VALIDATION_ERROR", "A job goes only to a person of its conversation", { field: "to_entity_id" });
  }
  if (to.entity_id === job.owner_entity_id) throw new AppError("CONFLICT", `${to.display_name} already has this job`);
  const actor = { entity_id: me.entity_id, actor_type: "human" as const };
  const handed = core.event(
    p.tenantId,
    "job.handed_over",
    job.conversation_id,
    actor,
    { job_id: jobId, from_entity_id: job.owner_entity_id, to_entity_id: to.entity_id, ...(body.note ? { note: body.note } : {}) },
    { job_id: jobId },
  );
  const t = translator(pickLocale(me.locale, core.defaultLocale));
  const who = to.entity_id === me.entity_id ? t("notify.handOverLine.themself") : to.display_name;
  const by = displayName(state, me.entity_id);
  const line = core.event(
    p.tenantId,
    "message.sent",
    job.conversation_id,
    actor,
    {
      message_id: core.ids("msg"),
      kind: "system",
      body_text: (body.note ? t("notify.handOverLine.note", { by, title: job.title, who, note: body.note }) : t("notify.handOverLine", { by, title: job.title, who })).slice(
        0,
        1000,
      ),
    },
    { job_id: jobId, causation_id: handed.event_id },
  );
  return core.commit(p.tenantId, [handed, line], {
    idem,
    status: 200,
    // Office replaces the agent's last card with one naming the new holder, from its durable inbox.
    extra: () => core.office.accept({ kind: "hand_over", request: { tenant_id: p.tenantId, trace_id: handed.trace_id, job_id: jobId, causation_id: handed.event_id } }),
    body: (res) => ({ job_id: jobId, owner_entity_id: to.entity_id, created_event_ids: res.accepted_event_ids }),
  });
}
