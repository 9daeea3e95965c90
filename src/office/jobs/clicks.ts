import type { TJobActionRequest } from "../../../contracts/office.js";
import { AppError } from "../../shared/errors.js";
import type { ContextBuilder, EntityProfile } from "../context-builder.js";
import type { EmitContext, EmitOptions } from "../emitter.js";
import type { HandOverRequest } from "../office-api.js";
import { pickLocale } from "../../shared/i18n.js";
import { checkAddress, checkClickCommand, invalidInputError } from "../governance-gate.js";
import { slotForInputKey } from "../../job/view.js";
import type { JobSlots, JobView } from "../job-machine.js";
import type { JobEngine } from "../engine/job-engine.js";
import { extractMeetingSlots } from "../planner/slots.js";
import type { BookedMeeting, Click, LedgerInput, Prepared } from "./model.js";
import { bookedOf } from "./meeting-change.js";

/** A hand-over the ledger accepted: the job, and the `job.handed_over` event that did it. */
export interface HandOverWork {
  tenant_id: string;
  trace_id: string;
  job_id: string;
  causation_id: string;
}

/**
 * Card clicks, from request to decision: read the job, name the clicker, check the click
 * (nothing is stored for a refused one), make its words ledger-safe, then let the job engine
 * decide and carry it out under the job's lock. Human clicks are written as the person, with
 * the card, button and action that caused them; what Office decides is written as the agent.
 */
export function createJobClicks(deps: { engine: JobEngine; context: ContextBuilder; defaultLocale?: string }) {
  const { engine, context } = deps;

  function load(req: TJobActionRequest): { job: JobView; agent: EntityProfile; click: Click } {
    const job = context.job(req.tenant_id, req.job_id);
    checkAddress(job, req);
    if (job.handed_over) {
      // A person holds the job: its cards' buttons were the agent's, and the agent no longer acts on it.
      const holder =
        context.profile(req.tenant_id, job.handed_over.to_entity_id)?.display_name ?? job.handed_over.to_entity_id;
      throw new AppError("CONFLICT", `This job was handed over to ${holder}; its agent no longer acts on it.`, {
        job_id: req.job_id,
        owner_entity_id: job.owner_entity_id,
      });
    }
    const agent = context.profile(req.tenant_id, job.owner_entity_id);
    if (!agent) throw new AppError("NOT_FOUND", "The job’s owner is not registered.", { job_id: req.job_id });
    // Refused before the click is accepted, so nothing waits in the inbox for a paused agent.
    if (agent.paused || agent.status) {
      throw new AppError(
        "CONFLICT",
        `${agent.display_name} is ${agent.status ?? "paused"}: an admin can resume it, or a person can take this job.`,
        { job_id: req.job_id },
      );
    }
    const who = context.profile(req.tenant_id, req.actor_entity_id);
    if (!who) throw new AppError("NOT_FOUND", "Unknown actor.", { actor_entity_id: req.actor_entity_id });
    const click: Click = {
      card_id: req.card_id,
      button_id: req.button_id,
      action: req.action,
      by: {
        entity_id: req.actor_entity_id,
        actor_type: who.actor_type,
        display_name: who.display_name || req.actor_entity_id,
        roles: who.roles,
      },
      ...(req.input ? { input: req.input } : {}),
    };
    return { job, agent, click };
  }

  /**
   * Form answers bound for the ledger, keyed as the form named them: meeting details go through
   * the intake (emails and links to the vault, the time words resolved into a window, which is
   * recorded beside them as `when`), everything else as short scrubbed text.
   */
  function sanitizeInputs(
    tenantId: string,
    input: Record<string, unknown>,
    prev: JobSlots,
  ): Record<string, LedgerInput> {
    const bySlot: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) {
      const slot = slotForInputKey(k);
      if (slot && slot !== "notes") bySlot[slot] = v;
    }
    const slots = engine.intakeSlots(tenantId, bySlot, prev) as Record<string, LedgerInput | undefined>;
    const out: Record<string, LedgerInput> = {};
    for (const [k, v] of Object.entries(input)) {
      const slot = slotForInputKey(k);
      const value = slot ? slots[slot] : undefined;
      if (value !== undefined) out[k] = value;
      else if (typeof v === "string" && slot !== "attendee_email" && slot !== "meeting_url")
        out[k] = engine.sanitizeText(tenantId, v).text.slice(0, 500);
      else if (typeof v === "number" || typeof v === "boolean") out[k] = v;
    }
    for (const k of ["when", "link_label", "meeting_link"] as const)
      if (slots[k] !== undefined && !(k in out)) out[k] = slots[k]!;
    return out;
  }

  /** The click's words made ledger-safe: this writes to the vault, so it runs after the checks. */
  function prepare(job: JobView, click: Click): Prepared {
    const t = job.tenant_id;
    const input = click.input ?? {};
    const scrub = (raw: string) => engine.sanitizeText(t, raw).text;
    switch (click.action.type) {
      case "job.reject":
        return typeof input.reason === "string" ? { text: scrub(input.reason) } : {};
      case "job.request_changes": {
        const raw = String(input.changes_request ?? "");
        if (job.kind !== "schedule_meeting") return { text: scrub(raw) };
        const found = extractMeetingSlots(raw, job.slots.locale);
        // A name is only changed when the person says "with <Name>".
        if (!/\bwith\s+[A-ZÀ-Ý]|(?<![\p{L}])com\s+(?:(?:a|o)\s+)?[A-ZÀ-Ý]/u.test(raw)) delete found.attendee_name;
        return { text: scrub(raw), slots: engine.intakeSlots(t, found, job.slots) };
      }
      case "job.provide_input":
        return { inputs: sanitizeInputs(t, input, job.slots) };
      case "job.dispute":
        return { text: scrub(String(input.dispute_reason ?? input.details ?? input.reason ?? "")) };
      case "chat.ask":
        return { text: scrub(click.action.prompt_text) };
      case "job.follow_up": {
        if (!click.action.change) return {};
        const booked = latestVersion(job);
        // A cancel needs no time; Accept new time / Keep original take theirs from the counter-proposal.
        if (click.action.change !== "move" || click.action.counter) return booked ? { booked } : {};
        // The new time is read like any meeting time: in the job's zone and language, as of now.
        const { when: _w, time_window: _tw, day_hint: _d, ...prev } = job.slots;
        const slots = engine.intakeSlots(t, { time_window: String(input.time_window ?? "") }, prev);
        return { ...(booked ? { booked } : {}), slots };
      }
      default:
        return {};
    }
  }

  /** The meeting's newest version: the job's own, or a later move of the same event in its conversation. */
  function latestVersion(job: JobView): BookedMeeting | undefined {
    let best = bookedOf(job);
    if (!best) return undefined;
    for (const s of context.conversationJobs(job.tenant_id, job.conversation_id)) {
      if (s.job_id === job.job_id) continue;
      const other = context.job(job.tenant_id, s.job_id);
      const b = other ? bookedOf(other) : undefined;
      if (b && b.event_uid === best.event_uid && b.sequence > best.sequence) best = b;
    }
    return best;
  }

  /** Check a click without writing anything (the gateway's synchronous pre-check). */
  function check(req: TJobActionRequest): void {
    const { job, click } = load(req);
    const { fieldErrors } = checkClickCommand(job, click);
    if (Object.keys(fieldErrors).length) throw invalidInputError(fieldErrors);
  }

  async function handle(req: TJobActionRequest): Promise<{ ids: string[]; notes?: string; job_id?: string }> {
    return engine.withLock(engine.jobKey(req.tenant_id, req.job_id), async () => {
      const { job, agent, click } = load(req);
      const { fieldErrors } = checkClickCommand(job, click);
      // A click is caused by the gateway's record of it, else by the card message that offered it.
      const cause = req.causation_id ?? job.card_events.get(req.card_id);
      const ec: EmitContext = {
        tenant_id: req.tenant_id,
        trace_id: req.trace_id,
        conversation_id: req.conversation_id,
        ...(cause ? { causation_id: cause } : {}),
      };
      const prepared = Object.keys(fieldErrors).length ? {} : prepare(job, click);
      const r = await engine.run(job, agent, { type: "click", click, prepared }, ec);
      return { ids: r.ids, ...(r.notes ? { notes: r.notes } : {}), ...(r.job_id ? { job_id: r.job_id } : {}) };
    });
  }

  /** Resend from the Outbox screen: the same step as the card's Resend, for the message's job. */
  async function resendOutbox(tenantId: string, jobId: string): Promise<{ ids: string[]; job_id: string }> {
    return engine.withLock(engine.jobKey(tenantId, jobId), async () => {
      const job = context.job(tenantId, jobId);
      const agent = job ? context.profile(tenantId, job.owner_entity_id) : undefined;
      if (!job || !agent) throw new AppError("NOT_FOUND", "No such job.", { job_id: jobId });
      const ec: EmitContext = {
        tenant_id: tenantId,
        trace_id: job.trace_id,
        conversation_id: job.conversation_id,
        causation_id: job.last_event_id,
      };
      return { ids: (await engine.run(job, agent, { type: "resend_mail" }, ec)).ids, job_id: jobId };
    });
  }

  /** The agent that wrote the job's cards (it writes the card that replaces its last one). */
  function cardAgent(job: JobView): EntityProfile | undefined {
    const authorId = [...job.cards.values()].reverse().find((c) => c.author?.actor_type === "agent")?.author?.entity_id;
    const id = authorId ?? job.owner_entity_id;
    const p = context.profile(job.tenant_id, id);
    return p?.actor_type === "agent" ? p : undefined;
  }

  /**
   * Hand over (the button, the REST route and the chat's "hand this over to Ana"): checks who it
   * goes to, then lets the decider write the hand-over, its line and the replacing card at once.
   */
  async function handOver(
    req: HandOverRequest,
    opts?: EmitOptions,
  ): Promise<{ ids: string[]; job_id: string; owner_entity_id: string }> {
    // Not under the job's lock: a step holding it may be waiting on a slow tool, and a person
    // must be able to take the job meanwhile. The ledger orders the writes (the policy pack judges
    // the hand-over against the job as committed), and the step that finishes later sees it.
    const job = context.job(req.tenant_id, req.job_id);
    if (!job || job.tenant_id !== req.tenant_id)
      throw new AppError("NOT_FOUND", "No such job.", { job_id: req.job_id });
    const by = context.profile(req.tenant_id, req.actor_entity_id);
    if (!by) throw new AppError("NOT_FOUND", "Unknown actor.", { actor_entity_id: req.actor_entity_id });
    const to = context.profile(req.tenant_id, req.to_entity_id);
    if (
      to?.actor_type !== "human" ||
      !context.participants(req.tenant_id, job.conversation_id).includes(to.entity_id)
    ) {
      throw new AppError("VALIDATION_ERROR", "A job goes only to a person of its conversation", {
        field: "to_entity_id",
      });
    }
    const agent = cardAgent(job);
    if (!agent) throw new AppError("NOT_FOUND", "The job’s agent is not registered.", { job_id: req.job_id });
    const ec: EmitContext = { tenant_id: req.tenant_id, trace_id: req.trace_id, conversation_id: job.conversation_id };
    const cmd = {
      type: "hand_over" as const,
      by: {
        entity_id: by.entity_id,
        actor_type: by.actor_type,
        display_name: by.display_name || by.entity_id,
        roles: by.roles,
      },
      to: { entity_id: to.entity_id, display_name: to.display_name || to.entity_id },
      ...(req.note ? { note: req.note } : {}),
      locale: pickLocale(by.locale, deps.defaultLocale),
    };
    const r = await engine.run(job, agent, cmd, ec, opts);
    return { ids: r.ids, job_id: job.job_id, owner_entity_id: to.entity_id };
  }

  /**
   * A hand-over an earlier version wrote without its card (from its inbox): the agent that wrote
   * the job's cards replaces its last one (once; a repeated call finds it written).
   */
  async function afterHandOver(req: HandOverWork): Promise<{ ids: string[] }> {
    return engine.withLock(engine.jobKey(req.tenant_id, req.job_id), async () => {
      const job = context.job(req.tenant_id, req.job_id);
      if (!job?.handed_over) return { ids: [] };
      const cards = [...job.cards.values()];
      const last = cards.at(-1);
      if (
        !last ||
        (last.owner.entity_id === job.handed_over.to_entity_id &&
          last.buttons.every((b) => b.action.type === "chat.ask"))
      )
        return { ids: [] };
      const agent = cardAgent(job);
      if (!agent) return { ids: [] };
      const ec: EmitContext = {
        tenant_id: req.tenant_id,
        trace_id: req.trace_id,
        conversation_id: job.conversation_id,
        causation_id: req.causation_id,
      };
      return { ids: (await engine.run(job, agent, { type: "handed_over" }, ec)).ids };
    });
  }

  return { handle, check, resendOutbox, handOver, afterHandOver };
}
