import type { TFormalizeCard } from "../../../contracts/cards.js";
import type { JobKind } from "../../job/view.js";
import type { JobSlots } from "../job-machine.js";
import { type Translate, words } from "../speak.js";
import { meetingLabel, meetingType } from "../tools/meeting-rooms.js";
import { describeWhen } from "../when/index.js";
import { slug } from "./progress.js";

/**
 * The words of a proposed job, on its Formalize card and in its `job.created`: its title, goal,
 * the inputs it needs, what it will make, its constraints and plan. A proposal says what would
 * happen once approved, never that it did.
 */

const EN = words();

/** What a proposed job of `kind` needs, makes and plans, from its slots (what is known is previewed). */
export function proposedJob(
  kind: JobKind,
  s: JobSlots,
  defaultTimezone: string,
  t: Translate = EN,
): Pick<TFormalizeCard["job"], "inputs_needed" | "expected_outputs" | "sla_hint"> & { plan_hint: string[] } {
  const who = s.attendee_name?.split(/\s+/)[0];
  const name = who ?? t("office.outcome.theAttendee");
  const change = s.change?.kind;
  const meeting = kind === "schedule_meeting" && !change;
  const handoff = kind === "handoff";
  const inputs = meeting
    ? [
        {
          key: `${slug(s.attendee_name)}_contact`,
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
            : { status: "missing" as const, value_preview: `${defaultTimezone}?` }),
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
  return {
    ...(inputs.length ? { inputs_needed: inputs } : {}),
    expected_outputs: change
      ? [
          { kind: "record", description: t(`office.change.output.${change}`) },
          { kind: "message", description: t(`office.change.output.mail.${change}`, { name }) },
        ]
      : meeting
        ? [
            { kind: "record", description: t("office.propose.output.ics") },
            { kind: "message", description: t("office.propose.output.mail", { name }) },
          ]
        : handoff
          ? [{ kind: "message", description: t("office.propose.output.handoff") }]
          : [{ kind: "message", description: t("office.propose.output.generic") }],
    sla_hint: t(
      meeting || change
        ? missing
          ? "office.propose.sla.afterDetails"
          : "office.propose.sla.meeting"
        : handoff
          ? "office.propose.sla.handoff"
          : "office.propose.sla.generic",
    ),
    plan_hint: change
      ? [t(`office.change.plan.${change}`), t("office.change.plan.tell", { name })]
      : meeting
        ? [
            ...(missing ? [t("office.propose.plan.collect")] : []),
            t("office.step.create"),
            t("office.propose.plan.send", { name }),
          ]
        : handoff
          ? [t("office.propose.plan.take"), t("office.propose.plan.doWork"), t("office.propose.plan.markDone")]
          : [t("office.step.generic.confirm"), t("office.step.generic.work"), t("office.propose.plan.report")],
  };
}

/** The catalog key of a meeting noun ("1:1" → office.planner.noun.oneOnOne). */
const NOUN_KEYS = new Set(["meeting", "sync", "demo", "interview", "review", "appointment", "session", "call"]);
const nounKey = (noun: string) =>
  `office.planner.noun.${{ "1:1": "oneOnOne", "catch-up": "catchUp", "check-in": "checkIn", "stand-up": "standUp" }[noun] ?? (NOUN_KEYS.has(noun) ? noun : "meeting")}`;

/** A meeting noun ("sync", "1:1") in the job's language. */
export const meetingNounWords = (noun: string, t: Translate = EN) => t(nounKey(noun));

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A meeting asked for in chat: its title, goal and constraint, and the slot title the invite
 * carries. `noun` is already in the job's language; `when` the described window or day, if any.
 */
export function meetingProposal(
  p: { noun: string; who?: string | undefined; minutes?: number | undefined; hint?: string; window?: string },
  t: Translate = EN,
) {
  const { noun, who } = p;
  const what = p.minutes
    ? t("office.planner.what.minutes", { noun, minutes: p.minutes })
    : t("office.planner.what", { noun });
  const when = p.hint
    ? t("office.planner.when.hint", { hint: p.hint })
    : p.window
      ? t("office.planner.when.window", { window: p.window })
      : "";
  return {
    title: (who ? t("office.planner.title.with", { noun, who }) : t("office.planner.title", { noun })).slice(0, 120),
    goal: (who ? t("office.planner.goal.with", { what, who, when }) : t("office.planner.goal", { what, when })).slice(
      0,
      500,
    ),
    slot_title: who ? t("office.planner.slotTitle.with", { noun: cap(noun), who }) : cap(noun),
    constraint: t("office.planner.constraint", { who: who ?? t("office.planner.attendees") }),
  };
}

/** A meeting job's goal again after Request changes, from its slots as they now are. */
export function changedMeetingGoal(slots: JobSlots, t: Translate = EN): string {
  const noun = (slots.title ?? t("office.planner.noun.meeting")).toLowerCase().replace(/ (with|com) .*/, "");
  return meetingProposal(
    {
      noun,
      who: slots.attendee_name,
      minutes: slots.duration_minutes,
      ...(slots.when
        ? { window: describeWhen(slots.when, slots.locale) }
        : slots.day_hint
          ? { hint: slots.day_hint }
          : {}),
    },
    t,
  ).goal;
}

/** A generic job's goal after Request changes: the goal, then what the person asked to change. */
export const changedGoal = (goal: string, changes: string) => `${goal} — ${changes}`.slice(0, 500);

/** The constraint a change request adds: the person's words. */
export const changesRequested = (text: string, t: Translate = EN) =>
  t("office.decide.changesRequested", { text }).slice(0, 300);

/** A reminder asked for with the meeting. */
export const reminderConstraint = (name: string, minutes: number, t: Translate = EN) =>
  t("office.reminder.constraint", { name, minutes });

/** Move / Cancel / Keep original: a follow-up job on the meeting booked at `was`. */
export function changeProposal(
  kind: "move" | "cancel" | "keep",
  p: { title: string; was: string; when?: string | undefined; name?: string | undefined; of_job: string },
  t: Translate = EN,
) {
  const name = p.name ?? t("office.outcome.theAttendee");
  const goal =
    kind === "move" && p.when
      ? t("office.change.goal.move", { title: p.title, was: p.was, when: p.when, name })
      : kind === "keep"
        ? t("office.change.goal.keep", { title: p.title, was: p.was, name })
        : t("office.change.goal.cancel", { title: p.title, was: p.was, name });
  return {
    title: t(`office.change.title.${kind}`, { title: p.title }).slice(0, 120),
    goal: goal.slice(0, 500),
    constraints: [t("office.change.constraint", { job: p.of_job })],
  };
}

/**
 * A job that follows another: Follow up on a finished one, or Try later / Switch tool on a failed
 * one (the same goal, said to be a second try or to use `using`).
 */
export function followUpProposal(
  why: "follow_up" | "retry" | "switch",
  job: { job_id: string; title: string; goal: string; kind: JobKind },
  p: { who?: string | undefined; minutes?: number | undefined; using?: string | undefined },
  t: Translate = EN,
) {
  const constraints = [t("office.propose.followUp.constraint", { job: job.job_id })];
  if (job.kind !== "schedule_meeting")
    return {
      title: t("office.propose.followUp.generic.title", { title: job.title }).slice(0, 120),
      goal: t("office.propose.followUp.generic.goal", { title: job.title }).slice(0, 500),
      constraints,
    };
  const who = p.who ?? t("office.propose.followUp.someone");
  if (why !== "follow_up")
    return {
      title: job.title.slice(0, 120),
      goal: (why === "retry"
        ? t("office.propose.retry.goal", { goal: job.goal })
        : t("office.propose.switch.goal", { goal: job.goal, place: p.using ?? "" })
      ).slice(0, 500),
      constraints,
    };
  return {
    title: t("office.propose.followUp.title", { name: who }).slice(0, 120),
    goal: (p.who
      ? t("office.propose.followUp.goal.with", { minutes: p.minutes ?? 30, name: p.who })
      : t("office.propose.followUp.goal", { minutes: p.minutes ?? 30 })
    ).slice(0, 500),
    slot_title: t("office.propose.followUp.slotTitle", { name: who }),
    constraints,
  };
}

/** Work no tool can do, handed to a person: its title names who asked. */
export const handoffTitle = (requester: string, request: string, t: Translate = EN) =>
  t("office.propose.handoff.title", { name: requester, request }).slice(0, 120);

export function handoffGoal(requester: string, request: string, t: Translate = EN): string {
  return t("office.handoff.goal", { requester, request }).slice(0, 500);
}

/** An MCP tool call, from the tool's own title and description (the server's words, quoted as they come). */
export const toolPurpose = (tool: string, by: string, description: string, t: Translate = EN) =>
  t("office.mcp.purpose", { tool, by, description: description.split(/(?<=\.)\s/)[0]!.slice(0, 160) });

/** A tool job's title. */
export const toolJobTitle = (tool: string, t: Translate = EN) => t("office.mcp.title", { tool }).slice(0, 120);

/** The note an auto-mode tool job starts with: nobody approves it, who asked. */
export const toolAutoNote = (tool: string, by: string, t: Translate = EN) => t("office.mcp.note.auto", { tool, by });

const argumentLine = (args: Record<string, unknown>, t: Translate) => {
  const parts = Object.entries(args).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return parts.length ? parts.join(", ").slice(0, 300) : t("office.mcp.noArguments");
};

/** An MCP call proposed for approval: the server, the tool and the arguments as the ledger keeps them. */
export function toolProposal(
  spec: { name: string; server: string; args: Record<string, unknown> },
  t: Translate = EN,
): Pick<TFormalizeCard["job"], "expected_outputs" | "constraints" | "sla_hint"> & { plan_hint: string[] } {
  return {
    expected_outputs: [{ kind: "record", description: t("office.mcp.output", { tool: spec.name }) }],
    constraints: [
      t("office.mcp.constraint.tool", { tool: spec.name, server: spec.server }),
      t("office.mcp.constraint.args", { args: argumentLine(spec.args, t) }),
    ],
    sla_hint: t("office.mcp.sla"),
    plan_hint: [
      t("office.mcp.plan.approve"),
      t("office.mcp.plan.call", { tool: spec.name }),
      t("office.mcp.plan.shown"),
    ],
  };
}
