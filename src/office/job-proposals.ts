import type { TFormalizeCard } from "../../contracts/cards.js";
import type { IdGenerator } from "../shared/ids.js";
import { buildFormalizeCard } from "./cards.js";
import type { EntityProfile } from "./context-builder.js";
import type { Draft } from "./emitter.js";
import { agentActor, type JobDrafts } from "./job-drafts.js";
import type { JobKind, JobSlots } from "./job-machine.js";
import * as copy from "./narrator.js";
import { meetingLabel, meetingType } from "./tools/meeting-rooms.js";
import { describeWhen } from "./when/index.js";

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
    const c = cardCtx(job, agent);
    const s = spec.slots;
    const who = s.attendee_name?.split(/\s+/)[0];
    const meeting = spec.kind === "schedule_meeting";
    const handoff = spec.kind === "handoff";
    const inputs = meeting
      ? [
          {
            key: `${copy.slug(s.attendee_name)}_contact`,
            label: `${who ?? "Attendee"} email/contact`,
            ...(s.attendee_email ? { status: "provided" as const, value_preview: s.attendee_email.redacted } : { status: "missing" as const }),
          },
          {
            key: "time_window",
            label: "Preferred days/times",
            ...(s.when ? { status: "provided" as const, value_preview: describeWhen(s.when).slice(0, 200) } : { status: "missing" as const }),
          },
          {
            key: "timezone",
            label: "Timezone confirmation",
            ...(s.timezone ? { status: "provided" as const, value_preview: s.timezone } : { status: "missing" as const, value_preview: `${deps.defaultTimezone}?` }),
          },
          {
            key: "meeting_link",
            label: "Where to meet",
            ...(s.meeting_link && (meetingType(s.meeting_link) !== "link" || s.meeting_url)
              ? { status: "provided" as const, value_preview: meetingLabel(s.meeting_link, s.link_label) }
              : { status: "missing" as const, value_preview: s.link_label ? `Paste your ${s.link_label} link` : "Jitsi Meet, a link, phone or in person?" }),
          },
        ]
      : [];
    const missing = inputs.some((i) => i.status === "missing");
    return buildFormalizeCard(
      c,
      {
        job_id: job.job_id,
        goal: spec.goal,
        priority: "normal",
        ...(inputs.length ? { inputs_needed: inputs } : {}),
        expected_outputs: meeting
          ? [
              { kind: "record", description: "Calendar invite (.ics), in your calendar if one is connected" },
              { kind: "message", description: `Invite emailed to ${who ?? "the attendee"} if mail is set up` },
            ]
          : handoff
            ? [{ kind: "message", description: "You do it and mark it done here; I only keep track" }]
            : [{ kind: "message", description: "Outcome reported here" }],
        ...(spec.constraints?.length ? { constraints: spec.constraints } : {}),
        sla_hint: meeting ? (missing ? "ETA ~5 minutes after details" : "ETA ~5 minutes") : handoff ? "When you get to it" : "ETA depends on the details",
        kind: spec.kind,
        slots: s,
      },
      {
        plan_hint: meeting
          ? [...(missing ? ["Collect missing details"] : []), "Create calendar invite", `Send invite to ${who ?? "the attendee"}`]
          : handoff
            ? ["You take it on (Approve)", "You do the work", "You mark it done here"]
            : ["Confirm the details", "Do the work", "Report back here"],
        ...(spec.parent_job_id ? { parent_job_id: spec.parent_job_id } : {}),
      },
    );
  }

  /** job.created + job.proposed + its card message, for a new job. */
  function proposeDrafts(agent: EntityProfile, at: { tenant_id: string; conversation_id: string }, spec: ProposalSpec): { job_id: string; drafts: Draft[] } {
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
