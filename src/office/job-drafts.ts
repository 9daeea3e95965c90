import type { TActor } from "../../contracts/primitives.js";
import type { Clock } from "../shared/clock.js";
import type { IdGenerator } from "../shared/ids.js";
import type { CardContext } from "./narrator.js";
import type { EntityProfile } from "./context-builder.js";
import type { Draft } from "./emitter.js";
import { letterHash } from "./letter-hash.js";
import { jobLocale } from "./speak.js";

/** The drafts every step of a job is made of: card contexts, card events, state changes, chat text. */

export const CALENDAR_TOOL = "calendar.create_invite";
export const MAIL_TOOL = "mail.send";

export const agentActor = (id: string): TActor => ({ entity_id: id, actor_type: "agent" });

/** One id per (job, tool, attempt); the calendar tool keeps the form older ledgers already hold. */
export function toolCallId(jobId: string, attempt: number, tool: string = CALENDAR_TOOL): string {
  return tool === CALENDAR_TOOL
    ? `tcall_${letterHash(jobId)}_a${attempt}`
    : `tcall_${letterHash(`${jobId}|${tool}`)}_a${attempt}`;
}

export function createJobDrafts(deps: { clock: Pick<Clock, "iso">; ids: IdGenerator }) {
  const { clock, ids } = deps;

  /** A card's ids, time and authors; its words in the language the job started in. */
  function cardCtx(
    job: { job_id: string; tenant_id: string; conversation_id: string; title: string; slots?: { locale?: string } },
    agent: EntityProfile,
  ): CardContext {
    const who = { entity_id: agent.entity_id, display_name: agent.display_name, actor_type: "agent" as const };
    const locale = jobLocale(job.slots);
    return {
      ...(locale === "en" ? {} : { locale }),
      card_id: ids("card"),
      job_id: job.job_id,
      tenant_id: job.tenant_id,
      conversation_id: job.conversation_id,
      now: clock.iso(),
      title: job.title,
      owner: who,
      author: who,
    };
  }

  const cardDrafts = (
    agentId: string,
    jobId: string,
    type: "job.progress" | "job.completed" | "job.proposed",
    card: Record<string, unknown>,
  ): Draft[] => {
    const key =
      type === "job.progress" ? "tracking_card" : type === "job.completed" ? "finished_card" : "proposed_card";
    return [
      { event_type: type, actor: agentActor(agentId), job_id: jobId, payload: { job_id: jobId, [key]: card } },
      {
        event_type: "message.sent",
        actor: agentActor(agentId),
        job_id: jobId,
        payload: { message_id: ids("msg"), kind: "card", card },
      },
    ];
  };

  const stateDraft = (
    agentId: string,
    jobId: string,
    prev: string,
    next: string,
    reason_code: string,
    note?: string,
    extra: Record<string, unknown> = {},
  ): Draft => ({
    event_type: "job.state_changed",
    actor: agentActor(agentId),
    job_id: jobId,
    payload: { job_id: jobId, prev_state: prev, next_state: next, reason_code, ...(note ? { note } : {}), ...extra },
  });

  const textDraft = (agentId: string, text: string, jobId?: string): Draft => ({
    event_type: "message.sent",
    actor: agentActor(agentId),
    ...(jobId ? { job_id: jobId } : {}),
    payload: { message_id: ids("msg"), kind: "text", body_text: text },
  });

  return { cardCtx, cardDrafts, stateDraft, textDraft };
}

export type JobDrafts = ReturnType<typeof createJobDrafts>;
