import { AppError } from "../../shared/errors.js";
import { isOpenState } from "../../job/transitions.js";
import { askAboutButton, buildTrackingCard } from "../narrator.js";
import type { Draft } from "../emitter.js";
import type { JobView } from "../job-machine.js";
import * as copy from "../narrator.js";
import { words } from "../speak.js";
import { afterDrafts, draftsFor } from "./basics.js";
import type { DecideContext, Decision, JobCommand } from "./model.js";

const OFFICE_SYSTEM = { entity_id: "system_office", actor_type: "system" as const };

/**
 * A person hands an open job to another person (or takes it): one batch with the
 * `job.handed_over` written as the giver, a line in the conversation saying so in the giver's
 * language, and the card that replaces the agent's last one. Whether the giver may (who asked
 * for it, an approver, an admin, or its holder) is the policy pack's call; a refusal writes
 * nothing. The same step serves the Hand over button and "hand this over to Ana" in the chat.
 */
export function handOver(job: JobView, cmd: Extract<JobCommand, { type: "hand_over" }>, ctx: DecideContext): Decision {
  const t = words(cmd.locale);
  if (!isOpenState(job.state)) {
    throw new AppError(
      "ILLEGAL_JOB_TRANSITION",
      `The job is ${job.state.replace("_", " ")}; only an open job can be handed over.`,
      { state: job.state },
    );
  }
  if (cmd.to.entity_id === job.owner_entity_id)
    throw new AppError("CONFLICT", `${cmd.to.display_name} already has this job.`, {
      owner_entity_id: job.owner_entity_id,
    });
  const by = { entity_id: cmd.by.entity_id, actor_type: cmd.by.actor_type };
  const handed: Draft = {
    event_type: "job.handed_over",
    actor: by,
    job_id: job.job_id,
    payload: {
      job_id: job.job_id,
      from_entity_id: job.owner_entity_id,
      to_entity_id: cmd.to.entity_id,
      ...(cmd.note ? { note: cmd.note } : {}),
    },
  };
  const who = cmd.to.entity_id === cmd.by.entity_id ? t("notify.handOverLine.themself") : cmd.to.display_name;
  const text = cmd.note
    ? t("notify.handOverLine.note", { by: cmd.by.display_name, title: job.title, who, note: cmd.note })
    : t("notify.handOverLine", { by: cmd.by.display_name, title: job.title, who });
  const line: Draft = {
    event_type: "message.sent",
    actor: by,
    job_id: job.job_id,
    payload: { message_id: ctx.ids("msg"), kind: "system", body_text: text.slice(0, 1000) },
  };
  const card = handedOverCard(afterDrafts(job, [handed]), ctx);
  // Nothing the agent had armed for the job fires any more, once the hand-over is written.
  return { events: [handed, line, ...card.events], effects: [{ type: "cancel_retry_after" }] };
}

/**
 * After a hand-over the agent's last card still promised what only the agent could do ("waiting
 * on Dan", Provide info, Got it): a new card replaces it, written from the `job.handed_over` that
 * proves it. It names the person who holds the job now, waits on them, and offers no buttons —
 * the agent no longer acts on the job, so there is nothing it could carry out (only Ask in chat).
 */
export function handedOverCard(job: JobView, ctx: DecideContext): Decision {
  const held = job.handed_over;
  if (!held) return { events: [], effects: [] };
  const d = draftsFor(ctx);
  const t = words(job.slots.locale);
  const holder = {
    entity_id: held.to_entity_id,
    display_name: ctx.profileOf(held.to_entity_id)?.display_name ?? held.to_entity_id,
  };
  const line = copy.handedOverLine(held, holder.display_name, t);
  const c = d.cardCtx(job, ctx.agent);
  // Only "Ask in chat" (a message, not an action on the job): the card needs one button.
  const base = buildTrackingCard(c, {
    state: job.state,
    status_line: line,
    waiting_on: [holder],
    steps: [],
    buttons: [askAboutButton(c, t)],
  });
  const card = { ...base, summary: line, owner: { ...holder, actor_type: "human" as const } };
  // Written as Office's system actor: the agent no longer owns the job, so it may not write for it.
  // A proposal that changed hands has no progress to record, only the card in the conversation.
  const progress = job.state === "approved" || job.state === "in_progress" || job.state === "waiting_input";
  const events = d
    .cardDrafts(ctx.agent.entity_id, job.job_id, "job.progress", card)
    .filter((e) => progress || e.event_type === "message.sent")
    .map((e) => ({ ...e, actor: OFFICE_SYSTEM }));
  return { events, effects: [] };
}

/**
 * A tool call that was running when a person took the job over still ended, and what it did
 * (or failed to do) is a fact: `decision` is what the agent would have written for its outcome,
 * of which only the `tool.result` is kept, written as Office's system actor (the agent no longer
 * owns the job). No card and no effect: the holder's card stays the one that speaks for the job,
 * and nothing is retried or armed for a job its agent no longer acts on.
 */
export function resultForHolder(decision: Decision): Decision {
  return {
    events: decision.events.filter((e) => e.event_type === "tool.result").map((e) => ({ ...e, actor: OFFICE_SYSTEM })),
    effects: [],
  };
}
