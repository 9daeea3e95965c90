import {
  type CardContext,
  buildFinishedCard,
  buildTrackingCard,
  completedButtons,
  progressButtons,
  trackingButtons,
} from "../narrator.js";
import type { Draft } from "../emitter.js";
import { agentActor, toolCallId } from "../job-drafts.js";
import { missingMeetingInputs, type JobView } from "../job-machine.js";
import { inviteAttendees } from "../intake/meeting-intake.js";
import * as copy from "../narrator.js";
import { words } from "../speak.js";
import { meetingType } from "../tools/meeting-rooms.js";
import { parseWhen } from "../when/index.js";
import { approverOf, draftsFor } from "./basics.js";
import { toolCallOf, toolJobStep } from "./mcp-step.js";
import { changeInput } from "./meeting-change.js";
import type { DecideContext, Decision, JobEffect, PlannedCall } from "./model.js";

/**
 * The pure steps of a running job: what it does next (ask for what is missing, stop where no
 * tool may act, or call its tool), the intent of a tool call, and what a tool's outcome means
 * for the job. Every card word about a result comes from the outcome it is given.
 */

/** The tool's input from the job's slots: the structured window as recorded, never re-read from text. */
function toolInput(job: JobView, ctx: DecideContext) {
  const s = job.slots;
  const timezone = s.timezone ?? ctx.defaultTimezone;
  // Jobs recorded before windows were structured carry only the words: read them as of the job's start.
  const when =
    s.when ??
    (s.time_window ? parseWhen(s.time_window, { now: Date.parse(job.created_at), timezone, locale: s.locale }) : null);
  const type = meetingType(s.meeting_link) ?? "jitsi";
  return {
    title: s.title ?? job.title.replace(/^Schedule\s+/i, "").replace(/^./, (m) => m.toUpperCase()),
    duration_minutes: s.duration_minutes ?? 30,
    when,
    meeting: {
      type,
      ...(s.link_label ? { label: s.link_label } : {}),
      ...(s.meeting_url?.vault_ref ? { url_ref: s.meeting_url.vault_ref } : {}),
    },
    organizer: { name: ctx.agent.display_name, entity_id: ctx.agent.entity_id },
    attendees: inviteAttendees(s, s.requested_by ? ctx.profileOf(s.requested_by) : undefined),
    ...(s.notes ? { notes_hint: s.notes.slice(0, 300) } : {}),
  };
}

/** A Tracking card that stops the job until a person acts, with the state change that says why. */
export function waitFor(
  job: JobView,
  ctx: DecideContext,
  reason_code: string,
  note: string,
  c: CardContext,
  spec: Parameters<typeof buildTrackingCard>[1],
): Draft[] {
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  return [
    d.stateDraft(A, job.job_id, "in_progress", "waiting_input", reason_code, note),
    ...d.cardDrafts(A, job.job_id, "job.progress", buildTrackingCard(c, spec)),
  ];
}

/**
 * The job is in progress after `prefix`: either it still lacks something (a card says what and
 * the job waits) or its tool runs (the intent is recorded first, the call is an effect).
 */
export function nextStep(job: JobView, prefix: Draft[], ctx: DecideContext): Decision {
  const d = draftsFor(ctx);
  const A = ctx.agent.entity_id;
  const c = () => d.cardCtx(job, ctx.agent);
  const stop = (events: Draft[]): Decision => ({ events: [...prefix, ...events], effects: [] });
  const t = words(job.slots.locale);
  if (job.kind === "tool_call" || toolCallOf(job)) return toolJobStep(job, prefix, ctx);
  if (job.kind === "handoff") {
    // Work handed to a person: Office waits to be told it is done, and quotes what it is told.
    if (job.slots.notes) {
      const fc = c();
      const finished = buildFinishedCard(fc, {
        result: "completed",
        summary: copy.handoffDone({ notes: job.slots.notes }, t),
        artifacts: [],
        buttons: completedButtons(fc),
      });
      return stop(d.cardDrafts(A, job.job_id, "job.completed", finished));
    }
    const doer = approverOf(job, ctx.profileOf);
    const tc = c();
    return stop(
      waitFor(job, ctx, "waiting_on_person", "Handed to a person.", tc, {
        state: "waiting_input",
        ...copy.handoffWaiting(doer[0]?.display_name, t),
        waiting_on: doer,
        buttons: trackingButtons(tc, copy.handoffDoneSchema(t)),
      }),
    );
  }
  if (job.kind === "generic") {
    const tc = c();
    return stop(
      waitFor(job, ctx, "no_tool_available", "No tool can do this job.", tc, {
        state: "waiting_input",
        ...copy.genericWaiting(t),
        waiting_on: approverOf(job, ctx.profileOf),
        buttons: trackingButtons(tc),
      }),
    );
  }
  const missing = missingMeetingInputs(job.slots);
  if (missing.length) {
    const tc = c();
    return stop(
      waitFor(job, ctx, "missing_required_inputs", "Need contact + preferred times before creating invite.", tc, {
        state: "waiting_input",
        status_line: copy.waitingStatus(missing, job.slots, t),
        waiting_on: approverOf(job, ctx.profileOf),
        steps: copy.meetingSteps("collect", t),
        buttons: trackingButtons(tc, copy.meetingInputSchema(missing, job.slots, ctx.defaultTimezone, {}, {}, t)),
      }),
    );
  }
  if (!ctx.calendar.allowed) {
    const tc = c();
    return stop(
      waitFor(job, ctx, "tool_not_allowed", `${ctx.calendar.tool.name} is not in this agent’s allowed tools.`, tc, {
        state: "waiting_input",
        ...copy.calendarNotAllowed(ctx.calendar.tool.name, t),
        waiting_on: approverOf(job, ctx.profileOf),
        steps: copy.meetingSteps("blocked_tool", t),
        buttons: trackingButtons(tc),
      }),
    );
  }
  return startTool(job, prefix, ctx);
}

/**
 * The intent of the next attempt: `tool.called` (with a Tracking card when a person's action
 * started it), written before the call runs. Its id is derived from (job, attempt), so two
 * processes racing to the same retry are told apart by the ledger.
 */
export function startTool(
  job: JobView,
  prefix: Draft[],
  ctx: DecideContext,
  resume?: { call_id: string; attempt: number },
): Decision {
  const tool = ctx.calendar.tool;
  const input = job.slots.change ? changeInput(job, ctx) : toolInput(job, ctx);
  const attempt = resume?.attempt ?? (job.tools.at(-1)?.attempt ?? 0) + 1;
  const call: PlannedCall = {
    call_id: resume?.call_id ?? toolCallId(job.job_id, attempt),
    tool_name: tool.name,
    attempt,
    input,
    idempotency_key: `idem:${job.job_id}:${tool.name}:${tool.version}`,
    provider: tool.providerOf(input),
  };
  const effects: JobEffect[] = [{ type: "run_tool", job, call }];
  if (resume) return { events: [...prefix], effects };
  const prev = job.tools.at(-1);
  const sanitized = tool.sanitize(input);
  const called: Draft = {
    event_type: "tool.called",
    event_id: `evt_${call.call_id}`,
    actor: agentActor(ctx.agent.entity_id),
    job_id: job.job_id,
    payload: {
      tool_call_id: call.call_id,
      tool_name: tool.name,
      tool_version: tool.version,
      purpose: tool.purpose(input),
      inputs: sanitized.inputs,
      pii_policy: {
        redactions_applied: sanitized.redactions_applied,
        hashes_applied: sanitized.hashes_applied,
        raw_pii_stored: false,
      },
      idempotency_key: call.idempotency_key,
      attempt,
      ...(prev && attempt > 1 ? { retry_of_tool_call_id: prev.tool_call_id } : {}),
    },
  };
  // A person's action started this run: say so on a Tracking card before the call.
  const starting: Draft[] = [];
  if (prefix.length) {
    // The chat's Tracking card moves in place (same card); with none in the chat yet, it is posted.
    const shown = job.latest["job.tracking"];
    const fresh = draftsFor(ctx).cardCtx(job, ctx.agent);
    const pc = shown ? { ...fresh, card_id: shown.card_id } : fresh;
    const t = words(job.slots.locale);
    const built = buildTrackingCard(pc, {
      state: "in_progress",
      status_line: copy.workingLine(job.slots.change?.kind, t),
      steps: copy.meetingSteps("create", t),
      buttons: progressButtons(pc),
    });
    const card = { ...built, progress: { ...built.progress, percent: 50, current_step: "create_invite" } };
    if (shown)
      starting.push({
        event_type: "job.progress",
        actor: agentActor(ctx.agent.entity_id),
        job_id: job.job_id,
        payload: { job_id: job.job_id, tracking_card: card },
      });
    else starting.push(...draftsFor(ctx).cardDrafts(ctx.agent.entity_id, job.job_id, "job.progress", card));
  }
  return { events: [...prefix, ...starting, called], effects };
}
