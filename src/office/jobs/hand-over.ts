import { askButton, buildTrackingCard } from "../cards.js";
import type { JobView } from "../job-machine.js";
import { words } from "../speak.js";
import { draftsFor } from "./basics.js";
import type { DecideContext, Decision } from "./model.js";

const OFFICE_SYSTEM = { entity_id: "system_office", actor_type: "system" as const };

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
  const holder = { entity_id: held.to_entity_id, display_name: ctx.profileOf(held.to_entity_id)?.display_name ?? held.to_entity_id };
  const line = t("office.handOver.card", { person: holder.display_name }).slice(0, 300);
  const c = d.cardCtx(job, ctx.agent);
  // Only "Ask in chat" (a message, not an action on the job): the card needs one button.
  const base = buildTrackingCard(c, {
    state: job.state,
    status_line: line,
    waiting_on: [holder],
    steps: [],
    buttons: [askButton(c, t("office.card.ask.any", { title: job.title }))],
  });
  const card = { ...base, summary: line, owner: { ...holder, actor_type: "human" as const } };
  // Written as Office's system actor: the agent no longer owns the job, so it may not write for it.
  // A proposal handed over was never started: there is no progress to record, only the card.
  const drafts = d.cardDrafts(ctx.agent.entity_id, job.job_id, "job.progress", card).filter((e) => job.state !== "proposed" || e.event_type === "message.sent");
  const events = drafts.map((e) => ({ ...e, actor: OFFICE_SYSTEM }));
  return { events, effects: [] };
}
