import type { TCardButton } from "../../../contracts/cards.js";
import { AppError } from "../../shared/errors.js";
import {
  buildFinishedCard,
  buildTrackingCard,
  completedButtons,
  progressButtons,
  trackingButtons,
} from "../narrator.js";
import type { Draft } from "../emitter.js";
import { checkClick, checkClicker, invalidInputError, validateInput } from "../governance-gate.js";
import { slotForInputKey } from "../../job/view.js";
import { missingMeetingInputs, type JobSlots, type JobView } from "../job-machine.js";
import { createJobProposals, type ProposalSpec } from "../job-proposals.js";
import * as copy from "../narrator.js";
import { words } from "../speak.js";
import { formatSlot } from "../when/index.js";
import { agentActor } from "../job-drafts.js";
import type { Click, DecideContext, Decision, JobCommand, JobEffect, OpenCommand, Prepared } from "./model.js";
import { noDecision } from "./model.js";
import { mailAttempt, mailOutcome } from "./mail-step.js";
import { openToolJob, recordToolOutcome, startToolCall, toolCallOf, toolProgress } from "./mcp-step.js";
import { recordOutcome } from "./outcome.js";
import { handedOverCard, handOver, resultForHolder } from "./hand-over.js";
import { afterDrafts, draftsFor, toolResultDraft } from "./basics.js";
import { nextStep, startTool } from "./step.js";
import { bookedOf, changeSpec, isChangeable } from "./meeting-change.js";
import { inviteAttendees } from "../meeting-intake.js";
import { answerRetryDue, ownCalls, recordAnswerOutcome, recordReply } from "./replies.js";

/**
 * The job decider: `decide(job, command, ctx)` says what a command does to a job — the events
 * that record it and the effects the runner carries out — without reading or writing anything.
 * A refused command throws the AppError the person sees (ILLEGAL_JOB_TRANSITION,
 * INVALID_PROVENANCE, UNAUTHORIZED_ACTION, INVALID_INPUT, CONFLICT). `evolve` (job-machine.ts)
 * folds the events back into the job, so `decide` then `evolve` is the whole machine.
 *
 * The rule behind every transition it makes is the job kernel's ../../job/transitions.ts: which
 * event moves a job where (`stateAfter`, `JOB_TRANSITIONS`, the policy pack's table) and which
 * clicks each state accepts and whose they are (`ACTIONS_BY_STATE`, `mayClick`, checked in
 * ../governance-gate.ts). Every word its cards carry is the narrator's (../narrator.ts).
 */
export function decide(job: JobView, cmd: JobCommand, ctx: DecideContext): Decision {
  if (cmd.type === "hand_over") return handOver(job, cmd, ctx);
  if (cmd.type === "handed_over") return handedOverCard(job, ctx);
  if (job.handed_over) {
    // A call that was running when the job changed hands still ended: what it did is recorded.
    if (cmd.type === "record_outcome" || cmd.type === "record_mcp_outcome" || cmd.type === "record_answer_outcome") {
      const held: JobView = { ...job };
      delete held.handed_over;
      return resultForHolder(decide(held, cmd, ctx));
    }
    // Boot found its call without a result: the agent does not call again, the person is told the truth.
    if (cmd.type === "resume_call") return cutOffForHolder(job, ctx);
    // A person holds the job now: its agent writes nothing more for it, whoever asks.
    if (cmd.type === "click" || cmd.type === "answer_in_chat" || cmd.type === "resend_mail") {
      const holder = ctx.profileOf(job.handed_over.to_entity_id)?.display_name ?? job.handed_over.to_entity_id;
      throw new AppError("CONFLICT", `This job was handed over to ${holder}; its agent no longer acts on it.`, {
        job_id: job.job_id,
        owner_entity_id: job.owner_entity_id,
      });
    }
    return noDecision();
  }
  return tellingEarlierVersions(job, decideOwn(job, cmd, ctx));
}

/** What a command does to a job its agent still holds. */
function decideOwn(job: JobView, cmd: JobCommand, ctx: DecideContext): Decision {
  switch (cmd.type) {
    case "hand_over":
      return handOver(job, cmd, ctx);
    case "handed_over":
      return handedOverCard(job, ctx);
    case "meeting_changed":
      return meetingChanged(job, cmd, ctx);
    case "click":
      return decideClick(job, cmd.click, cmd.prepared, ctx);
    case "revise_proposal":
      return reviseProposal(job, cmd, ctx);
    case "answer_in_chat":
      return answerInChat(job, cmd, ctx);
    case "retry_due": {
      // A timer re-reads the job: it runs only if that very attempt is still the one due.
      const last = ownCalls(job).at(-1);
      if (
        job.state !== "in_progress" ||
        last?.status !== "error" ||
        !last.retryable ||
        last.attempt + 1 !== cmd.attempt
      )
        return noDecision();
      const spec = toolCallOf(job);
      return spec ? startToolCall(job, [], ctx, spec) : startTool(job, [], ctx);
    }
    case "resume_call": {
      const last = ownCalls(job).at(-1);
      if (job.state !== "in_progress" || !last || last.status) return noDecision();
      if (last.args_ref) return resumeToolCall(job, last, ctx);
      return startTool(job, [], ctx, { call_id: last.tool_call_id, attempt: last.attempt });
    }
    case "tool_progress":
      return toolProgress(job, cmd, ctx);
    case "record_mcp_outcome":
      return recordToolOutcome(job, cmd, ctx);
    case "record_outcome":
      return recordOutcome(job, cmd, ctx);
    case "resend_mail":
      if (job.state !== "waiting_input" && job.state !== "in_progress")
        throw new AppError(
          "CONFLICT",
          `The job is ${job.state.replace("_", " ")}; its email can no longer be resent.`,
          { job_id: job.job_id, state: job.state },
        );
      return resendMail(job, ctx);
    case "mail_attempt":
      return mailAttempt(job, cmd.delivery, cmd.attempt, ctx);
    case "mail_outcome":
      return mailOutcome(job, cmd.delivery, cmd.attempt, cmd.outcome, ctx);
    case "record_reply":
      return recordReply(job, cmd, ctx);
    case "record_answer_outcome":
      return recordAnswerOutcome(job, cmd, ctx);
    case "answer_retry_due":
      return answerRetryDue(job, cmd, ctx);
  }
}

/**
 * A job's birth: the events that open it (and, for an auto tool, start its call). Nothing exists
 * to decide against yet, so this is the decider's other entry.
 */
export function decideOpen(cmd: OpenCommand, ctx: DecideContext): Decision & { job_id: string } {
  if (cmd.type === "open_tool_job") return openToolJob(ctx, cmd.at, cmd.spec, cmd.by);
  const p = createJobProposals({
    ids: ctx.ids,
    defaultTimezone: ctx.defaultTimezone,
    drafts: draftsFor(ctx),
  }).proposeDrafts(ctx.agent, cmd.at, cmd.spec);
  return { events: p.drafts, effects: [], job_id: p.job_id };
}

/** Assist's Apply on a proposal: recorded as the person's change request, answered with the new proposal. */
function reviseProposal(
  job: JobView,
  cmd: Extract<JobCommand, { type: "revise_proposal" }>,
  ctx: DecideContext,
): Decision {
  if (job.state !== "proposed")
    throw new AppError("CONFLICT", `The job is ${job.state.replace("_", " ")}; only a proposal can be revised.`, {
      job_id: job.job_id,
      state: job.state,
    });
  const asked: Draft = {
    event_type: "job.changes_requested",
    actor: cmd.by,
    job_id: job.job_id,
    payload: { job_id: job.job_id, changes_text: cmd.text.slice(0, 2000), ...cmd.via },
  };
  return {
    events: [asked, ...draftsFor(ctx).cardDrafts(ctx.agent.entity_id, job.job_id, "job.proposed", cmd.card)],
    effects: [],
  };
}

/**
 * The checks a click must pass before anything is recorded: offered on this job's card, allowed
 * in its state, by someone who may click it. Returns the button and the form's field errors
 * (a bad form answer is not refused here: Provide info answers it with a card that says why).
 */
export function checkClickCommand(
  job: JobView,
  click: Click,
): { button: TCardButton; fieldErrors: Record<string, string> } {
  const { button } = checkClick(job, click);
  if (click.by.actor_type === "human") checkClicker(click.by.roles, button.action.type, button.label);
  const fieldErrors = validateInput(button, click.input, job.slots.locale);
  if (Object.keys(fieldErrors).length && click.action.type !== "job.provide_input")
    throw invalidInputError(fieldErrors);
  return { button, fieldErrors };
}

const has = (o: Record<string, string>) => Object.keys(o).length > 0;

function decideClick(job: JobView, click: Click, prepared: Prepared, ctx: DecideContext): Decision {
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

/**
 * Boot found an MCP call with no result (the process stopped during it). A tool that only reads
 * or says a second call is harmless is called again under the same id; any other may or may not
 * have done its work, so a person decides (Try again / Cancel).
 */
function resumeToolCall(job: JobView, last: JobView["tools"][number], ctx: DecideContext): Decision {
  const tool = ctx.mcpTool?.(last.tool_name);
  const call = {
    call_id: last.tool_call_id,
    tool_name: last.tool_name,
    attempt: last.attempt,
    input: { args_ref: last.args_ref },
    idempotency_key: `idem:${job.job_id}:${last.tool_name}:mcp`,
    provider: last.provider ?? "mcp",
  };
  if (tool?.annotations.readOnlyHint || tool?.annotations.idempotentHint)
    return { events: [], effects: [{ type: "run_tool", job, call }] };
  const message_safe = RESTARTED;
  return recordToolOutcome(
    job,
    {
      type: "record_mcp_outcome",
      call,
      outcome: { ok: false, error: { error_code: "UNKNOWN", message_safe, retryable: false }, latency_ms: 0 },
      breaker_open: false,
    },
    ctx,
  );
}

const RESTARTED = "The server was restarted during the call; it may or may not have finished.";

/**
 * Boot found a call without a result on a job a person took over: its agent no longer acts on
 * it, so it is not called again; what is known — the call was cut off and may or may not have
 * done its work — is recorded for the holder, and the drawer stops showing a call in progress.
 */
function cutOffForHolder(job: JobView, ctx: DecideContext): Decision {
  const last = job.tools.at(-1);
  if (!last || last.status) return noDecision();
  const call = {
    call_id: last.tool_call_id,
    tool_name: last.tool_name,
    attempt: last.attempt,
    input: {},
    idempotency_key: "",
    provider: last.provider ?? "",
  };
  const error = { error_code: "UNKNOWN", message_safe: RESTARTED, retryable: false };
  return resultForHolder({
    events: [toolResultDraft(job, ctx, call, "error", 0, { error, retryable: false })],
    effects: [],
  });
}

/**
 * A move or a cancel that finishes (its Finished card, completed) makes the cards of the jobs
 * that booked the meeting's earlier versions out of date: the runner tells each of them.
 */
function tellingEarlierVersions(job: JobView, d: Decision): Decision {
  const change = job.slots.change?.kind;
  if ((change !== "move" && change !== "cancel") || !job.parent_job_id) return d;
  const done = d.events.some(
    (e) =>
      e.event_type === "job.completed" &&
      (e.payload.finished_card as { outcome?: { result?: string } })?.outcome?.result === "completed",
  );
  return done ? { ...d, effects: [...d.effects, { type: "tell_earlier_versions" }] } : d;
}

/**
 * The meeting this job booked was moved or cancelled by a later job: a new Finished card says
 * so, in that job's words (built from its calendar and mail results) and with the time it had
 * here, so the chat and the drawer no longer show the old time as the meeting's. A cancelled
 * meeting's card offers no Move… or Cancel meeting; a moved one's still does (they act on the
 * latest version).
 */
function meetingChanged(
  job: JobView,
  cmd: Extract<JobCommand, { type: "meeting_changed" }>,
  ctx: DecideContext,
): Decision {
  const booked = bookedOf(job);
  if (job.state !== "completed" || !booked) return noDecision();
  const t = words(job.slots.locale);
  const d = draftsFor(ctx);
  const c = d.cardCtx(job, ctx.agent);
  const was = formatSlot(
    Date.parse(booked.scheduled_time.start),
    Date.parse(booked.scheduled_time.end),
    booked.scheduled_time.timezone,
    job.slots.locale,
  );
  const summary = copy.earlierVersion(cmd, was, t);
  const card = buildFinishedCard(c, {
    result: "completed",
    summary,
    artifacts: [],
    buttons: completedButtons(c, { changeable: !cmd.cancelled && isChangeable(job) }),
  });
  return {
    events: [
      {
        event_type: "message.sent",
        actor: agentActor(ctx.agent.entity_id),
        job_id: job.job_id,
        payload: { message_id: ctx.ids("msg"), kind: "card", card },
      },
    ],
    effects: [],
  };
}

/** Cancel effects come first: the runner performs them before it writes the events. */
const withEffect = (d: Decision, e: JobEffect): Decision => ({ ...d, effects: [e, ...d.effects] });

/** The calendar invite exists (only its email can still be pending or refused). */
const hasInvite = (job: JobView) => bookedOf(job) !== undefined;

/** Back to work on the email step: the job runs again and the outbox sends the same message now. */
function resendMail(job: JobView, ctx: DecideContext): Decision {
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
function answerInChat(
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
