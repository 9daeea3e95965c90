import type { TFormalizeCard } from "../../contracts/cards.js";
import type { IdGenerator } from "../shared/ids.js";
import { buildFormalizeCard } from "./narrator.js";
import type { EntityProfile } from "./context-builder.js";
import type { Draft } from "./emitter.js";
import { agentActor, type JobDrafts } from "./job-drafts.js";
import type { JobKind } from "../job/view.js";
import type { JobSlots } from "./job-machine.js";
import * as copy from "./narrator.js";
import { words as say } from "./speak.js";

/** What a new job is proposed with. */
export interface ProposalSpec {
  title: string;
  kind: JobKind;
  goal: string;
  slots: JobSlots;
  constraints?: string[];
  parent_job_id?: string;
}

/** Proposal building: the Formalize card for a job's spec, and the drafts that open a new job. */
export function createJobProposals(deps: { ids: IdGenerator; defaultTimezone: string; drafts: JobDrafts }) {
  const { ids } = deps;
  const { cardCtx, cardDrafts } = deps.drafts;

  function formalizeCardFor(
    job: { job_id: string; tenant_id: string; conversation_id: string; title: string },
    agent: EntityProfile,
    spec: { kind: JobKind; goal: string; slots: JobSlots; constraints?: string[]; parent_job_id?: string },
  ): TFormalizeCard {
    const s = spec.slots;
    const c = cardCtx({ ...job, slots: s }, agent);
    const { plan_hint, ...words } = copy.proposedJob(spec.kind, s, deps.defaultTimezone, say(s.locale));
    return buildFormalizeCard(
      c,
      {
        job_id: job.job_id,
        goal: spec.goal,
        priority: "normal",
        ...words,
        ...(spec.constraints?.length ? { constraints: spec.constraints } : {}),
        kind: spec.kind,
        slots: s,
      },
      { plan_hint, ...(spec.parent_job_id ? { parent_job_id: spec.parent_job_id } : {}) },
    );
  }

  /** job.created + job.proposed + its card message, for a new job. */
  function proposeDrafts(
    agent: EntityProfile,
    at: { tenant_id: string; conversation_id: string },
    spec: ProposalSpec,
  ): { job_id: string; drafts: Draft[] } {
    const job_id = ids("job");
    const job = { job_id, tenant_id: at.tenant_id, conversation_id: at.conversation_id, title: spec.title };
    const card = formalizeCardFor(job, agent, spec);
    return {
      job_id,
      drafts: [
        {
          event_type: "job.created",
          actor: agentActor(agent.entity_id),
          job_id,
          payload: {
            job_id,
            title: spec.title,
            conversation_id: at.conversation_id,
            owner_entity_id: agent.entity_id,
            ...(spec.parent_job_id ? { parent_job_id: spec.parent_job_id } : {}),
          },
        },
        ...cardDrafts(agent.entity_id, job_id, "job.proposed", card),
      ],
    };
  }

  return { formalizeCardFor, proposeDrafts };
}
