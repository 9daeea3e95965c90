import { AppError } from "../../shared/errors.js";
import {
  buildFinishedCard,
  buildTrackingCard,
  completedButtons,
  progressButtons,
  trackingButtons,
} from "../narrator.js";
import { checkClickCommand } from "../governance-gate.js";
import type { Draft } from "../emitter.js";
import { slotForInputKey } from "../../job/view.js";
import { missingMeetingInputs, type JobSlots, type JobView } from "../job-machine.js";
import { createJobProposals, type ProposalSpec } from "../job-proposals.js";
import * as copy from "../narrator.js";
import { words } from "../speak.js";
import type { Click, DecideContext, Decision, JobCommand, JobEffect, Prepared } from "./model.js";
import { afterDrafts, draftsFor } from "./basics.js";
import { nextStep } from "./step.js";
import { bookedOf, changeSpec, isChangeable } from "./meeting-change.js";
import { inviteAttendees } from "../intake/meeting-intake.js";

/**
 * What a person's acts do to a job its agent holds: a click on its card (Approve, Provide info,
 * Got it, Cancel, Move…, Try later…), an answer typed in chat for its open form, a resend of its
 * email, and Assist's revision of a proposal. Part of the decider (./decide.ts): pure, and every
 * word on the cards it writes is the narrator's.
 */
const has = (o: Record<string, string>) => Object.keys(o).length > 0;

export function decideClick(job: JobView, click: Click, prepared: Prepared, ctx: DecideContext): Decision {
  const { fieldErrors } = checkClickCommand(job, click);
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  const J = job.job_id;
  const provenance = { card_id: click.card_id, button_id: click.button_id, action: click.action };
  const human = (event_type: string, payload: Record<string, unknown> = {}): Draft => ({
    event_type,
    actor: { entity_id: click.by.entity_id, actor_type: click.by.actor_type },
    job_id: J,
    payload: { job_id: J, ...payload, ...provenance },
  });
  const text = prepared.text ?? "";
  const action = click.action;
  const lang = job.slots.locale;
  const t = words(lang);

  if (has(fieldErrors)) {
    // A bad form answer gets a field error now and a Tracking card saying what is wrong.
    const c = d.cardCtx(job, ctx.agent);
    const meeting = job.kind === "schedule_meeting";
    const missing = meeting
      ? [
          ...new Set([
            ...missingMeetingInputs(job.slots),
            ...Object.keys(fieldErrors).map((k) => slotForInputKey(k) ?? k),
          ]),
        ]
      : [];
    const schema = meeting
      ? copy.meetingInputSchema(missing, job.slots, ctx.defaultTimezone, fieldErrors, click.input ?? {}, t)
      : undefined;
    const card = buildTrackingCard(c, {
      state: job.state,
      status_line: copy.pleaseFix(fieldErrors, t),
      waiting_on: [{ entity_id: click.by.entity_id, display_name: click.by.display_name }],
      steps: copy.meetingSteps("collect", t),
      buttons: trackingButtons(c, schema),
    });
    return { events: d.cardDrafts(A, J, "job.progress", card), effects: [], refusal: { fields: fieldErrors } };
  }

  switch (action.type) {
    case "job.approve": {
      const events = [human("job.approved"), d.stateDraft(A, J, "approved", "in_progress", "approved_by_user")];
      return nextStep(afterDrafts(job, events), events, ctx);
    }
    case "job.reject":
      return {
        events: [
          human("job.rejected", {
            ...(action.reason_code ? { reason_code: action.reason_code } : {}),
            ...(text ? { reason_text: text } : {}),
          }),
          d.textDraft(A, copy.clickLine("rejected", job.title, t), J),
        ],
        effects: [],
      };
    case "job.request_changes": {
      let slots: JobSlots = job.slots;
      let goal: string;
      if (job.kind === "schedule_meeting") {
        slots = { ...slots, ...prepared.slots };
        goal = copy.changedMeetingGoal(slots, t);
      } else {
        goal = copy.changedGoal(job.goal, text);
      }
      const card = createJobProposals({
        ids: ctx.ids,
        defaultTimezone: ctx.defaultTimezone,
        drafts: d,
      }).formalizeCardFor(job, ctx.agent, {
        kind: job.kind,
        goal,
        slots,
        constraints: [copy.changesRequested(text, t)],
        ...(job.parent_job_id ? { parent_job_id: job.parent_job_id } : {}),
      });
      return {
        events: [
          human("job.changes_requested", { changes_text: text.slice(0, 2000) }),
          ...d.cardDrafts(A, J, "job.proposed", card),
        ],
        effects: [],
      };
    }
    case "job.provide_input": {
      const given = human("job.input_provided", { inputs: prepared.inputs ?? {} });
      if (job.state === "in_progress")
        return { events: [given, d.textDraft(A, copy.clickLine("willUse", job.title, t), J)], effects: [] };
      const events = [given, d.stateDraft(A, J, "waiting_input", "in_progress", "inputs_received")];
      return nextStep(afterDrafts(job, events), events, ctx);
    }
    case "job.ack":
      return { events: [human("job.acknowledged")], effects: [] };
    case "job.dispute": {
      const reason = text.slice(0, 2000);
      const events: Draft[] = [
        human("job.disputed", {
          reason_text: reason,
          ...(action.reason_code ? { reason_code: action.reason_code } : {}),
        }),
      ];
      const effects: JobEffect[] = [];
      if (job.state === "in_progress") {
        // Dispute pauses: no retry fires while the person is being asked what is wrong.
        effects.push({ type: "cancel_retry" });
        const c = d.cardCtx(job, ctx.agent);
        const card = buildTrackingCard(c, {
          state: "waiting_input",
          ...copy.disputedPause(reason, t),
          waiting_on: [{ entity_id: click.by.entity_id, display_name: click.by.display_name }],
          steps: copy.meetingSteps("collect", t),
          buttons: trackingButtons(
            c,
            job.kind === "schedule_meeting"
              ? copy.meetingInputSchema(["time_window"], job.slots, ctx.defaultTimezone, {}, {}, t)
              : undefined,
          ),
        });
        events.push(
          d.stateDraft(A, J, "in_progress", "waiting_input", "disputed_by_user", reason.slice(0, 500)),
          ...d.cardDrafts(A, J, "job.progress", card),
        );
      }
      const question = ["completed", "failed", "cancelled"].includes(job.state)
        ? copy.clickLine("disputeDone", job.title, t)
        : copy.clickLine("disputePaused", job.title, t);
      events.push(d.textDraft(A, question, J));
      return { events, effects };
    }
    case "job.cancel": {
      const effects: JobEffect[] = [{ type: "cancel_retry" }, { type: "cancel_mail" }, { type: "abort_call" }];
      if (job.state === "failed")
        return { events: [d.textDraft(A, copy.clickLine("closed", job.title, t), J)], effects };
      const name = click.by.display_name;
      const fc = d.cardCtx(job, ctx.agent);
      const finished = buildFinishedCard(fc, {
        result: "cancelled",
        summary: copy.cancelledBy({ action: { type: "job.cancel" }, by: click.by }, t),
        artifacts: [],
        buttons: completedButtons(fc),
      });
      return {
        events: [
          d.stateDraft(A, J, job.state, "cancelled", "cancelled_by_user", `Cancelled by ${name}`, provenance),
          ...d.cardDrafts(A, J, "job.completed", finished),
        ],
        effects,
      };
    }
    case "job.retry":
    case "job.switch_tool": {
      const switchTo =
        action.type === "job.switch_tool"
          ? (action.to ?? copy.alternativeLink(job.slots.meeting_link).value)
          : undefined;
      if (job.state === "failed")
        return followUp(
          job,
          ctx,
          switchTo ? { meeting_link: switchTo as NonNullable<JobSlots["meeting_link"]> } : {},
          action.type === "job.retry" ? "retry" : "switch",
        );
      // The invite exists and only its email failed: Resend delivers the same message again.
      if (action.type === "job.retry" && hasInvite(job))
        return withEffect(resendMail(job, ctx), { type: "cancel_retry" });
      // A switch is recorded as the person's change request; a bare retry has no job event of
      // its own (the gateway's click bubble and the causation id record it).
      const label = copy.LINK_OPTIONS.find((o) => o.value === switchTo)?.label ?? switchTo;
      const events: Draft[] = switchTo ? [human("job.changes_requested", { changes_text: `Switch to ${label}` })] : [];
      if (job.state === "waiting_input")
        events.push(d.stateDraft(A, J, "waiting_input", "in_progress", switchTo ? "tool_switched" : "retry_requested"));
      const next = afterDrafts(job, events);
      const switched = switchTo
        ? { ...next, slots: { ...next.slots, meeting_link: switchTo as NonNullable<JobSlots["meeting_link"]> } }
        : next;
      return withEffect(nextStep(switched, events, ctx), { type: "cancel_retry" });
    }
    case "job.follow_up":
      if (action.change) return changeMeeting(job, ctx, action.change, action.counter, prepared);
      return followUp(job, ctx, {}, "follow_up");
    case "chat.ask":
      return {
        events: [
          {
            event_type: "message.sent",
            actor: { entity_id: click.by.entity_id, actor_type: click.by.actor_type },
            job_id: J,
            payload: {
              message_id: ctx.ids("msg"),
              kind: "text",
              body_text: text,
              action: { card_id: click.card_id, button_id: click.button_id, type: "chat.ask", job_id: J },
            },
          },
          d.textDraft(A, copy.answerAbout(job, text, t), J),
        ],
        effects: [],
      };
    default:
      throw new AppError("VALIDATION_ERROR", "Unknown action.");
  }
}

/** Cancel effects come first: the runner performs them before it writes the events. */
const withEffect = (d: Decision, e: JobEffect): Decision => ({ ...d, effects: [e, ...d.effects] });

/** The calendar invite exists (only its email can still be pending or refused). */
const hasInvite = (job: JobView) => bookedOf(job) !== undefined;

/** Back to work on the email step: the job runs again and the outbox sends the same message now. */
export function resendMail(job: JobView, ctx: DecideContext): Decision {
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  const c = d.cardCtx(job, ctx.agent);
  const t = words(job.slots.locale);
  const card = buildTrackingCard(c, {
    state: "in_progress",
    status_line: copy.resendingLine(job.slots.attendee_email?.redacted, t),
    steps: copy.meetingSteps("send", t),
    buttons: progressButtons(c),
  });
  const events =
    job.state === "waiting_input"
      ? [d.stateDraft(A, job.job_id, "waiting_input", "in_progress", "resend_requested")]
      : [];
  return {
    events: [...events, ...d.cardDrafts(A, job.job_id, "job.progress", card)],
    effects: [{ type: "resend_mail" }],
  };
}

/** A chat answer fills the open Tracking card's form; its Provide info button is the provenance. */
export function answerInChat(
  job: JobView,
  cmd: Extract<JobCommand, { type: "answer_in_chat" }>,
  ctx: DecideContext,
): Decision {
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  const J = job.job_id;
  const t = words(job.slots.locale);
  if (job.state !== "waiting_input")
    return {
      events: [d.textDraft(A, copy.clickLine("noted", job.title, t), J)],
      effects: [],
      notes: "Job not waiting for input",
    };
  const tracking = job.latest["job.tracking"];
  const button = tracking?.buttons.find((b) => b.action.type === "job.provide_input");
  if (!tracking || !button)
    return { events: [d.textDraft(A, copy.clickLine("useForm", job.title, t), J)], effects: [], notes: "No open form" };
  const events: Draft[] = [
    {
      event_type: "job.input_provided",
      actor: cmd.by,
      job_id: J,
      payload: {
        job_id: J,
        inputs: cmd.inputs,
        card_id: tracking.card_id,
        button_id: button.button_id,
        action: { type: "job.provide_input", job_id: J },
      },
    },
    d.stateDraft(A, J, "waiting_input", "in_progress", "inputs_received"),
  ];
  return { ...nextStep(afterDrafts(job, events), events, ctx), notes: "Continued the job", job_id: J };
}

/** Move… or Cancel meeting: a follow-up job, proposed for approval, that writes the meeting's next version. */
function changeMeeting(
  job: JobView,
  ctx: DecideContext,
  kind: "move" | "cancel" | "keep",
  counter: string | undefined,
  prepared: Prepared,
): Decision {
  const version = prepared.booked ?? bookedOf(job);
  if (!version || !isChangeable(job))
    throw new AppError("CONFLICT", copy.changeRefusal("notBooked", words(job.slots.locale)), { job_id: job.job_id });
  const requester = job.slots.requested_by ? ctx.profileOf(job.slots.requested_by) : undefined;
  const spec = changeSpec(job, version, kind, {
    when: prepared.slots?.when,
    reply_event_id: counter,
    attendees: inviteAttendees(job.slots, requester),
  });
  const p = createJobProposals({
    ids: ctx.ids,
    defaultTimezone: ctx.defaultTimezone,
    drafts: draftsFor(ctx),
  }).proposeDrafts(ctx.agent, { tenant_id: job.tenant_id, conversation_id: job.conversation_id }, spec);
  return {
    events: p.drafts,
    effects: [],
    job_id: p.job_id,
    notes: kind === "move" ? "Proposed moving the meeting" : "Proposed cancelling the meeting",
  };
}

/** A new job linked to its parent: follow-up, "Try later" or "Switch tool" on a failed job. */
function followUp(
  job: JobView,
  ctx: DecideContext,
  override: Partial<JobSlots>,
  why: "follow_up" | "retry" | "switch",
): Decision {
  const t = words(job.slots.locale);
  let spec: ProposalSpec;
  if (job.kind === "schedule_meeting") {
    const slots: JobSlots = { ...job.slots, ...override };
    // A follow-up is at another time: the window is asked for again.
    if (why === "follow_up") for (const k of ["time_window", "when", "day_hint"] as const) delete slots[k];
    const using = copy.placeName(slots.meeting_link, t);
    const { slot_title, ...said } = copy.followUpProposal(
      why,
      job,
      { who: job.slots.attendee_name, minutes: slots.duration_minutes, using },
      t,
    );
    spec = {
      ...said,
      kind: "schedule_meeting",
      slots: slot_title ? { ...slots, title: slot_title } : slots,
      parent_job_id: job.job_id,
    };
  } else {
    spec = {
      ...copy.followUpProposal(why, job, {}, t),
      kind: "generic",
      slots: {},
      parent_job_id: job.job_id,
    };
  }
  const proposals = createJobProposals({ ids: ctx.ids, defaultTimezone: ctx.defaultTimezone, drafts: draftsFor(ctx) });
  const p = proposals.proposeDrafts(
    ctx.agent,
    { tenant_id: job.tenant_id, conversation_id: job.conversation_id },
    spec,
  );
  return { events: p.drafts, effects: [], job_id: p.job_id, notes: "Proposed a follow-up job" };
}
