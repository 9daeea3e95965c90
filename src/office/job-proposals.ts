import type { TFormalizeCard } from "../../contracts/cards.js";
import type { IdGenerator } from "../shared/ids.js";
import { buildFormalizeCard } from "./cards.js";
import type { EntityProfile } from "./context-builder.js";
import type { Draft } from "./emitter.js";
import { agentActor, type JobDrafts } from "./job-drafts.js";
import type { JobKind } from "../job/view.js";
import type { JobSlots } from "./job-machine.js";
import * as copy from "./narrator.js";
import { words } from "./speak.js";
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
    const s = spec.slots;
    const c = cardCtx({ ...job, slots: s }, agent);
    const t = words(s.locale);
    const who = s.attendee_name?.split(/\s+/)[0];
    const change = s.change?.kind;
    const meeting = spec.kind === "schedule_meeting" && !change;
    const handoff = spec.kind === "handoff";
    const inputs = meeting
      ? [
          {
            key: `${copy.slug(s.attendee_name)}_contact`,
            label: t("office.propose.input.contact", { name: who ?? t("office.form.attendee") }),
            ...(s.attendee_email
              ? { status: "provided" as const, value_preview: s.attendee_email.redacted }
              : { status: "missing" as const }),
          },
          {
            key: "time_window",
            label: t("office.form.timeWindow.label"),
            ...(s.when
              ? { status: "provided" as const, value_preview: describeWhen(s.when, s.locale).slice(0, 200) }
              : { status: "missing" as const }),
          },
          {
            key: "timezone",
            label: t("office.propose.input.timezone"),
            ...(s.timezone
              ? { status: "provided" as const, value_preview: s.timezone }
              : { status: "missing" as const, value_preview: `${deps.defaultTimezone}?` }),
          },
          {
            key: "meeting_link",
            label: t("office.form.meetingLink.label"),
            ...(s.meeting_link && (meetingType(s.meeting_link) !== "link" || s.meeting_url)
              ? { status: "provided" as const, value_preview: meetingLabel(s.meeting_link, s.link_label, t) }
              : {
                  status: "missing" as const,
                  value_preview: s.link_label
                    ? t("office.propose.input.pasteLink", { service: s.link_label })
                    : t("office.propose.input.where"),
                }),
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
        expected_outputs: change
          ? [
              { kind: "record", description: t(`office.change.output.${change}`) },
              {
                kind: "message",
                description: t(`office.change.output.mail.${change}`, { name: who ?? t("office.outcome.theAttendee") }),
              },
            ]
          : meeting
            ? [
                { kind: "record", description: t("office.propose.output.ics") },
                {
                  kind: "message",
                  description: t("office.propose.output.mail", { name: who ?? t("office.outcome.theAttendee") }),
                },
              ]
            : handoff
              ? [{ kind: "message", description: t("office.propose.output.handoff") }]
              : [{ kind: "message", description: t("office.propose.output.generic") }],
        ...(spec.constraints?.length ? { constraints: spec.constraints } : {}),
        sla_hint: t(
          meeting || change
            ? missing
              ? "office.propose.sla.afterDetails"
              : "office.propose.sla.meeting"
            : handoff
              ? "office.propose.sla.handoff"
              : "office.propose.sla.generic",
        ),
        kind: spec.kind,
        slots: s,
      },
      {
        plan_hint: change
          ? [
              t(`office.change.plan.${change}`),
              t("office.change.plan.tell", { name: who ?? t("office.outcome.theAttendee") }),
            ]
          : meeting
            ? [
                ...(missing ? [t("office.propose.plan.collect")] : []),
                t("office.step.create"),
                t("office.propose.plan.send", { name: who ?? t("office.outcome.theAttendee") }),
              ]
            : handoff
              ? [t("office.propose.plan.take"), t("office.propose.plan.doWork"), t("office.propose.plan.markDone")]
              : [t("office.step.generic.confirm"), t("office.step.generic.work"), t("office.propose.plan.report")],
        ...(spec.parent_job_id ? { parent_job_id: spec.parent_job_id } : {}),
      },
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
