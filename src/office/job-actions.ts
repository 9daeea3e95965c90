import type { TCardButton } from "../../contracts/cards.js";
import type { TRedactedValue } from "../../contracts/events.js";
import type { TJobActionRequest } from "../../contracts/office.js";
import type { TActor } from "../../contracts/primitives.js";
import { AppError } from "../shared/errors.js";
import { buildFinishedCard, buildTrackingCard, completedButtons, progressButtons, trackingButtons } from "./cards.js";
import type { EntityProfile } from "./context-builder.js";
import type { Draft, EmitContext } from "./emitter.js";
import { checkAction, checkClicker, invalidInputError, validateInput } from "./governance-gate.js";
import { applyInputs, missingMeetingInputs, slotForInputKey, type JobSlots, type JobView } from "./job-machine.js";
import type { JobEngine } from "./job-engine.js";
import type { ProposalSpec } from "./job-proposals.js";
import * as copy from "./narrator.js";
import { extractMeetingSlots } from "./planner/slots.js";
import { describeWhen } from "./when/index.js";
import type { TWhen } from "../../contracts/when.js";
import type { ContextBuilder } from "./context-builder.js";
import type { IdGenerator } from "../shared/ids.js";

/**
 * One handler per card action. Each reads the job from the ledger, checks the click through
 * the Governance Gate, and hands the Job Engine the step's drafts. Human clicks are written
 * as the person (with the card, button and action that caused them); everything Office
 * decides is written as the agent.
 */

export function createJobActions(deps: {
  engine: JobEngine;
  context: ContextBuilder;
  emit: (ec: EmitContext, d: Draft[]) => Promise<string[]>;
  defaultTimezone: string;
  ids: IdGenerator;
}) {
  const { engine, context } = deps;

  function load(req: TJobActionRequest): { job: JobView; agent: EntityProfile; button: TCardButton; clicker: TActor } {
    const job = context.job(req.tenant_id, req.job_id);
    const { button } = checkAction(job, req);
    const agent = context.profile(req.tenant_id, job!.owner_entity_id);
    if (!agent) throw new AppError("NOT_FOUND", "The job’s owner is not registered.", { job_id: req.job_id });
    const who = context.profile(req.tenant_id, req.actor_entity_id);
    if (!who) throw new AppError("NOT_FOUND", "Unknown actor.", { actor_entity_id: req.actor_entity_id });
    if (who.actor_type === "human") checkClicker(who.roles, button.action.type, button.label);
    return { job: job!, agent, button, clicker: { entity_id: req.actor_entity_id, actor_type: who.actor_type } };
  }

  const provenance = (req: TJobActionRequest) => ({ card_id: req.card_id, button_id: req.button_id, action: req.action });

  /**
   * Input values bound for the ledger, keyed as the form named them: meeting details go through
   * the intake (emails and links to the vault, the time words resolved into a window, which is
   * recorded beside them as `when`), everything else as short scrubbed text.
   */
  function sanitizeInputs(tenantId: string, input: Record<string, unknown>, prev: JobSlots): Record<string, string | number | boolean | TRedactedValue | TWhen> {
    const bySlot: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) {
      const slot = slotForInputKey(k);
      if (slot && slot !== "notes") bySlot[slot] = v;
    }
    const slots = engine.intakeSlots(tenantId, bySlot, prev) as Record<string, string | number | boolean | TRedactedValue | TWhen | undefined>;
    const out: Record<string, string | number | boolean | TRedactedValue | TWhen> = {};
    for (const [k, v] of Object.entries(input)) {
      const slot = slotForInputKey(k);
      const value = slot ? slots[slot] : undefined;
      if (value !== undefined) out[k] = value;
      else if (typeof v === "string" && slot !== "attendee_email" && slot !== "meeting_url") out[k] = engine.sanitizeText(tenantId, v).text.slice(0, 500);
      else if (typeof v === "number" || typeof v === "boolean") out[k] = v;
    }
    for (const k of ["when", "link_label", "meeting_link"] as const) if (slots[k] !== undefined && !(k in out)) out[k] = slots[k]!;
    return out;
  }

  /** Check a click without writing anything (the gateway's synchronous pre-check). */
  function check(req: TJobActionRequest): void {
    const { button } = load(req);
    const errors = validateInput(button, req.input);
    if (Object.keys(errors).length) throw invalidInputError(errors);
  }

  async function handle(req: TJobActionRequest): Promise<{ ids: string[]; notes?: string; job_id?: string }> {
    return engine.withLock(engine.jobKey(req.tenant_id, req.job_id), async () => {
      const { job, agent, button, clicker } = load(req);
      // A click is caused by the gateway's record of it, else by the card message that offered it.
      const cause = req.causation_id ?? job.card_events.get(req.card_id);
      const ec: EmitContext = { tenant_id: req.tenant_id, trace_id: req.trace_id, conversation_id: req.conversation_id, ...(cause ? { causation_id: cause } : {}) };
      const A = agent.entity_id;
      const J = job.job_id;
      const human = (event_type: string, payload: Record<string, unknown> = {}): Draft => ({
        event_type,
        actor: clicker,
        job_id: J,
        payload: { job_id: J, ...payload, ...provenance(req) },
      });
      const errors = validateInput(button, req.input);

      if (Object.keys(errors).length) {
        // A bad form answer gets a field error now and a Tracking card saying what is wrong.
        if (req.action.type !== "job.provide_input") throw invalidInputError(errors);
        const c = engine.cardCtx(job, agent);
        const missing = job.kind === "schedule_meeting" ? [...new Set([...missingMeetingInputs(job.slots), ...Object.keys(errors).map((k) => slotForInputKey(k) ?? k)])] : [];
        const schema = job.kind === "schedule_meeting" ? copy.meetingInputSchema(missing, job.slots, deps.defaultTimezone, errors, req.input ?? {}) : undefined;
        const card = buildTrackingCard(c, {
          state: job.state,
          status_line: `Please fix: ${Object.values(errors).join(" ")}`.slice(0, 300),
          waiting_on: [{ entity_id: clicker.entity_id, display_name: context.profile(req.tenant_id, clicker.entity_id)?.display_name ?? clicker.entity_id }],
          steps: copy.meetingSteps("collect"),
          buttons: trackingButtons(c, schema),
        });
        const ids = await deps.emit(ec, engine.cardDrafts(A, J, "job.progress", card));
        throw invalidInputError(errors, { emitted_event_ids: ids });
      }

      switch (req.action.type) {
        case "job.approve": {
          const drafts: Draft[] = [human("job.approved"), engine.stateDraft(A, J, "approved", "in_progress", "approved_by_user")];
          const next: JobView = { ...job, state: "in_progress", approvals: [...job.approvals, { by: clicker.entity_id, at: "", action: "approved" }] };
          const step = engine.nextStep(next, agent);
          if (step.run) return { ids: await engine.runTool(next, agent, drafts, ec) };
          return { ids: await deps.emit(ec, [...drafts, ...step.drafts]) };
        }
        case "job.reject": {
          const reason = typeof req.input?.reason === "string" ? engine.sanitizeText(req.tenant_id, req.input.reason).text : undefined;
          return {
            ids: await deps.emit(ec, [
              human("job.rejected", { ...(req.action.reason_code ? { reason_code: req.action.reason_code } : {}), ...(reason ? { reason_text: reason } : {}) }),
              engine.textDraft(A, "Understood — I won’t do this. What would you like instead?", J),
            ]),
          };
        }
        case "job.request_changes": {
          const raw = String(req.input?.changes_request ?? "");
          const changes = engine.sanitizeText(req.tenant_id, raw);
          let slots: JobSlots = job.slots;
          let goal = job.goal;
          if (job.kind === "schedule_meeting") {
            const found = extractMeetingSlots(raw);
            if (!/\bwith\s+[A-ZÀ-Ý]/.test(raw)) delete found.attendee_name;
            slots = { ...slots, ...engine.intakeSlots(req.tenant_id, found, slots) };
            const dur = slots.duration_minutes ? `a ${slots.duration_minutes}-minute` : "a";
            goal = `Schedule ${dur} ${(slots.title ?? "meeting").toLowerCase().replace(/ with .*/, "")}${slots.attendee_name ? ` with ${slots.attendee_name}` : ""}${slots.when ? ` (${describeWhen(slots.when)})` : slots.day_hint ? ` ${slots.day_hint}` : ""} and send an invite`;
          } else {
            goal = `${job.goal} — ${changes.text}`.slice(0, 500);
          }
          const card = engine.formalizeCardFor(job, agent, {
            kind: job.kind,
            goal,
            slots,
            constraints: [`Changes requested: ${changes.text}`.slice(0, 300)],
            ...(job.parent_job_id ? { parent_job_id: job.parent_job_id } : {}),
          });
          return { ids: await deps.emit(ec, [human("job.changes_requested", { changes_text: changes.text.slice(0, 2000) }), ...engine.cardDrafts(A, J, "job.proposed", card)]) };
        }
        case "job.provide_input": {
          const inputs = sanitizeInputs(req.tenant_id, req.input ?? {}, job.slots);
          const drafts: Draft[] = [human("job.input_provided", { inputs })];
          if (job.state === "in_progress") {
            return { ids: await deps.emit(ec, [...drafts, engine.textDraft(A, "Noted — I’ll use that.", J)]) };
          }
          const next: JobView = { ...job, slots: applyInputs(job.slots, inputs), state: "in_progress" };
          drafts.push(engine.stateDraft(A, J, "waiting_input", "in_progress", "inputs_received"));
          const step = engine.nextStep(next, agent);
          if (step.run) return { ids: await engine.runTool(next, agent, drafts, ec) };
          return { ids: await deps.emit(ec, [...drafts, ...step.drafts]) };
        }
        case "job.ack":
          return { ids: await deps.emit(ec, [human("job.acknowledged")]) };
        case "job.dispute": {
          const raw = String(req.input?.dispute_reason ?? req.input?.details ?? req.input?.reason ?? "");
          const reason = engine.sanitizeText(req.tenant_id, raw).text.slice(0, 2000);
          const drafts: Draft[] = [human("job.disputed", { reason_text: reason, ...(req.action.reason_code ? { reason_code: req.action.reason_code } : {}) })];
          if (job.state === "in_progress") {
            // Dispute pauses: no retry fires while the person is being asked what is wrong.
            engine.cancelTimer(req.tenant_id, J);
            const c = engine.cardCtx(job, agent);
            const card = buildTrackingCard(c, {
              state: "waiting_input",
              status_line: `Paused: ${reason}`.slice(0, 300),
              blockers: ["Disputed — waiting for clarification"],
              waiting_on: [{ entity_id: clicker.entity_id, display_name: context.profile(req.tenant_id, clicker.entity_id)?.display_name ?? clicker.entity_id }],
              steps: copy.meetingSteps("collect"),
              buttons: trackingButtons(c, job.kind === "schedule_meeting" ? copy.meetingInputSchema(["time_window"], job.slots, deps.defaultTimezone) : undefined),
            });
            drafts.push(engine.stateDraft(A, J, "in_progress", "waiting_input", "disputed_by_user", reason.slice(0, 500)), ...engine.cardDrafts(A, J, "job.progress", card));
          }
          const question = ["completed", "failed", "cancelled"].includes(job.state)
            ? `Sorry about that. What was wrong with “${job.title}”? I can propose a follow-up job to fix it.`
            : `I’ve paused “${job.title}”. What should I do differently? Tell me here or use Provide info.`;
          drafts.push(engine.textDraft(A, question, J));
          return { ids: await deps.emit(ec, drafts) };
        }
        case "job.cancel": {
          engine.cancelTimer(req.tenant_id, J);
          engine.mail.cancelForJob(req.tenant_id, J);
          if (job.state === "failed") {
            return { ids: await deps.emit(ec, [engine.textDraft(A, `Closed. Nothing more will run for “${job.title}”.`, J)]) };
          }
          const name = context.profile(req.tenant_id, clicker.entity_id)?.display_name ?? clicker.entity_id;
          const fc = engine.cardCtx(job, agent);
          const finished = buildFinishedCard(fc, {
            result: "cancelled",
            summary: `Cancelled by ${name}. Nothing else will run for this job.`,
            artifacts: [],
            buttons: completedButtons(fc),
          });
          return {
            ids: await deps.emit(ec, [
              engine.stateDraft(A, J, job.state, "cancelled", "cancelled_by_user", `Cancelled by ${name}`, provenance(req)),
              ...engine.cardDrafts(A, J, "job.completed", finished),
            ]),
          };
        }
        case "job.retry":
        case "job.switch_tool": {
          const switchTo = req.action.type === "job.switch_tool" ? (req.action.to ?? copy.alternativeLink(job.slots.meeting_link).value) : undefined;
          if (job.state === "failed")
            return followUp(
              req,
              job,
              agent,
              clicker,
              switchTo ? { meeting_link: switchTo as NonNullable<JobSlots["meeting_link"]> } : {},
              req.action.type === "job.retry" ? "retry" : "switch",
            );
          engine.cancelTimer(req.tenant_id, J);
          // The invite exists and only its email failed: Resend delivers the same message again.
          if (req.action.type === "job.retry" && engine.mail.hasInvite(job)) return { ids: await resendMail(job, agent, ec) };
          // The pack lets a switch be recorded as the person's change request; a bare retry has
          // no job event of its own (the gateway's click bubble and the causation id record it).
          const label = copy.LINK_OPTIONS.find((o) => o.value === switchTo)?.label ?? switchTo;
          const drafts: Draft[] = switchTo ? [human("job.changes_requested", { changes_text: `Switch to ${label}` })] : [];
          const next: JobView = { ...job, slots: switchTo ? { ...job.slots, meeting_link: switchTo as NonNullable<JobSlots["meeting_link"]> } : job.slots, state: "in_progress" };
          if (job.state === "waiting_input") drafts.push(engine.stateDraft(A, J, "waiting_input", "in_progress", switchTo ? "tool_switched" : "retry_requested"));
          const step = engine.nextStep(next, agent);
          if (step.run) return { ids: await engine.runTool(next, agent, drafts, ec) };
          return { ids: await deps.emit(ec, [...drafts, ...step.drafts]) };
        }
        case "job.follow_up":
          return followUp(req, job, agent, clicker, {}, "follow_up");
        case "chat.ask": {
          const q = engine.sanitizeText(req.tenant_id, req.action.prompt_text).text;
          return {
            ids: await deps.emit(ec, [
              {
                event_type: "message.sent",
                actor: clicker,
                job_id: J,
                payload: { message_id: deps.ids("msg"), kind: "text", body_text: q, action: { card_id: req.card_id, button_id: req.button_id, type: "chat.ask", job_id: J } },
              },
              engine.textDraft(A, copy.answerAbout(job, q), J),
            ]),
          };
        }
        default:
          throw new AppError("VALIDATION_ERROR", "Unknown action.");
      }
    });
  }

  /** Back to work on the email step: the job runs again and the outbox sends the same message now. */
  async function resendMail(job: JobView, agent: EntityProfile, ec: EmitContext): Promise<string[]> {
    const A = agent.entity_id;
    const c = engine.cardCtx(job, agent);
    const card = buildTrackingCard(c, {
      state: "in_progress",
      status_line: `Resending the invite to ${job.slots.attendee_email?.redacted ?? "the attendee"}…`,
      steps: copy.meetingSteps("send"),
      buttons: progressButtons(c),
    });
    const drafts: Draft[] = job.state === "waiting_input" ? [engine.stateDraft(A, job.job_id, "waiting_input", "in_progress", "resend_requested")] : [];
    const ids = await deps.emit(ec, [...drafts, ...engine.cardDrafts(A, job.job_id, "job.progress", card)]);
    engine.mail.resend(job.tenant_id, job.job_id);
    return ids;
  }

  /** A new job linked to its parent: follow-up, "Try later" or "Switch tool" on a failed job. */
  async function followUp(req: TJobActionRequest, job: JobView, agent: EntityProfile, _clicker: TActor, override: Partial<JobSlots>, why: "follow_up" | "retry" | "switch") {
    const cause = req.causation_id ?? job.card_events.get(req.card_id);
    const ec: EmitContext = { tenant_id: req.tenant_id, trace_id: req.trace_id, conversation_id: req.conversation_id, ...(cause ? { causation_id: cause } : {}) };
    const who = job.slots.attendee_name;
    let spec: ProposalSpec;
    if (job.kind === "schedule_meeting") {
      const slots: JobSlots = { ...job.slots, ...override };
      // A follow-up is at another time: the window is asked for again.
      if (why === "follow_up") for (const k of ["time_window", "when", "day_hint"] as const) delete slots[k];
      const title = why === "follow_up" ? `Schedule follow-up with ${who ?? "attendee"}` : job.title;
      spec = {
        title: title.slice(0, 120),
        kind: "schedule_meeting" as const,
        goal:
          why === "follow_up"
            ? `Schedule a follow-up ${slots.duration_minutes ?? 30}-minute call${who ? ` with ${who}` : ""} and send an invite`
            : `${job.goal} (${why === "retry" ? "second try" : `using ${copy.LINK_OPTIONS.find((o) => o.value === slots.meeting_link)?.label ?? slots.meeting_link}`})`,
        slots: why === "follow_up" ? { ...slots, title: `Follow-up with ${who ?? "attendee"}` } : slots,
        constraints: [`Follows up job ${job.job_id}`],
        parent_job_id: job.job_id,
      };
    } else {
      spec = {
        title: `Follow up: ${job.title}`.slice(0, 120),
        kind: "generic" as const,
        goal: `Follow up on “${job.title}”`,
        slots: {},
        constraints: [`Follows up job ${job.job_id}`],
        parent_job_id: job.job_id,
      };
    }
    const p = engine.proposeDrafts(agent, { tenant_id: req.tenant_id, conversation_id: job.conversation_id }, spec);
    return { ids: await deps.emit(ec, p.drafts), job_id: p.job_id, notes: "Proposed a follow-up job" };
  }

  /** Resend from the Outbox screen: the same step as the card's Resend, for the message's job. */
  async function resendOutbox(tenantId: string, jobId: string): Promise<{ ids: string[]; job_id: string }> {
    return engine.withLock(engine.jobKey(tenantId, jobId), async () => {
      const job = context.job(tenantId, jobId);
      const agent = job ? context.profile(tenantId, job.owner_entity_id) : undefined;
      if (!job || !agent) throw new AppError("NOT_FOUND", "No such job.", { job_id: jobId });
      if (job.state !== "waiting_input" && job.state !== "in_progress")
        throw new AppError("CONFLICT", `The job is ${job.state.replace("_", " ")}; its email can no longer be resent.`, { job_id: jobId, state: job.state });
      const ec: EmitContext = { tenant_id: tenantId, trace_id: job.trace_id, conversation_id: job.conversation_id, causation_id: job.last_event_id };
      return { ids: await resendMail(job, agent, ec), job_id: jobId };
    });
  }

  return { handle, check, resendOutbox };
}
