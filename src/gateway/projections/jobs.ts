import type { TCardButton, TJobCard } from "../../../contracts/cards.js";
import type { TStoredEvent } from "../../../contracts/events.js";
import type { TJobState } from "../../../contracts/primitives.js";
import type { CardRow, Delta, JobRow, TenantState } from "./state.js";

const TRACKING_STATES: readonly TJobState[] = ["approved", "in_progress", "waiting_input"];
const TERMINAL: readonly TJobState[] = ["completed", "rejected", "cancelled", "failed"];

/**
 * The buttons the UI may show for a job now: the latest card's, when that card still fits the
 * job's state (the UI never invents actions, and a stale card's buttons would be refused).
 */
function availableActions(job: JobRow): TCardButton[] {
  const card = job.last_card;
  // A handed-over job's cards are its agent's, and its agent no longer acts on it.
  if (!card || job.handed_over) return [];
  const fits =
    (card.card_type === "job.formalize" && job.state === "proposed") ||
    (card.card_type === "job.tracking" && TRACKING_STATES.includes(job.state)) ||
    (card.card_type === "job.finished" && TERMINAL.includes(job.state));
  return fits ? card.buttons : [];
}

export function jobHeader(state: TenantState, job: JobRow): Record<string, unknown> {
  return {
    job_id: job.job_id,
    conversation_id: job.conversation_id,
    title: job.title,
    state: job.state,
    updated_at: job.updated_at,
    owner: ownerOf(state, job),
    ...(job.waiting_on ? { waiting_on: job.waiting_on } : {}),
    available_actions: availableActions(job),
    ...(job.last_card ? { actions_card_id: job.last_card.card_id } : {}),
    ...(job.last_error_code ? { last_error_code: job.last_error_code } : {}),
    ...(job.handed_over ? { handed_over: job.handed_over } : {}),
  };
}

export function ownerOf(state: TenantState, job: JobRow) {
  const e = state.entities.get(job.owner_entity_id);
  return { entity_id: job.owner_entity_id, display_name: e?.display_name ?? job.owner_entity_id, actor_type: e?.actor_type ?? ("agent" as const) };
}

function cardRow(card: TJobCard, conversationId: string): CardRow {
  return { card_id: card.card_id, job_id: card.job_id, conversation_id: conversationId, card_type: card.card_type, state: card.state, buttons: card.buttons };
}

function ensureJob(state: TenantState, ev: TStoredEvent, jobId: string): JobRow {
  let job = state.jobs.get(jobId);
  if (!job) {
    job = {
      job_id: jobId,
      conversation_id: ev.conversation_id,
      title: jobId,
      goal: "",
      state: "draft",
      owner_entity_id: ev.actor.entity_id,
      created_at: ev.ts,
      updated_at: ev.ts,
      source_event_id: ev.event_id,
    };
    state.jobs.set(jobId, job);
  }
  return job;
}

/** projection_jobs (+ projection_job_artifacts): job headers, waiting and activity signals. */
export function applyJobs(state: TenantState, ev: TStoredEvent): Delta[] {
  const jobId = ev.job_id ?? ("job_id" in ev.payload ? (ev.payload as { job_id?: string }).job_id : undefined);
  if (!jobId) return [];
  if (!ev.event_type.startsWith("job.") && !ev.event_type.startsWith("tool.") && !(ev.event_type === "message.sent" && ev.payload.card)) return [];
  const job = ensureJob(state, ev, jobId);
  const ms = Date.parse(ev.ts);
  const deltas: Delta[] = [];
  const addArtifact = (a: {
    artifact_id: string;
    kind: "file" | "link" | "record" | "quote";
    title: string;
    url?: string | undefined;
    mime_type?: string | undefined;
    size_bytes?: number | undefined;
    event_id?: string | undefined;
  }) => {
    let list = state.artifacts.get(jobId);
    if (!list) state.artifacts.set(jobId, (list = []));
    if (list.some((x) => x.artifact_id === a.artifact_id)) return;
    const row = { ...a, event_id: a.event_id ?? ev.event_id, produced_by_event_id: ev.event_id, produced_at: ev.ts };
    list.push(row);
    const { produced_by_event_id: _p, ...artifact } = row;
    deltas.push({ event: "artifact.added", data: { tenant_id: state.tenant_id, job_id: jobId, artifact }, ...audience(state, job) });
  };

  switch (ev.event_type) {
    case "job.created": {
      const p = ev.payload;
      job.title = p.title;
      job.conversation_id = p.conversation_id;
      job.owner_entity_id = p.owner_entity_id;
      job.created_at = ev.ts;
      if (p.parent_job_id) job.parent_job_id = p.parent_job_id;
      break;
    }
    case "job.proposed": {
      const c = ev.payload.proposed_card;
      job.title = c.title;
      job.goal = c.job.goal;
      if (c.job.constraints) job.constraints = c.job.constraints;
      if (c.job.priority) job.priority = c.job.priority;
      if (c.job.due_at) job.due_at = c.job.due_at;
      if (c.parent_job_id) job.parent_job_id = c.parent_job_id;
      job.owner_entity_id = c.owner.entity_id;
      job.state = "proposed";
      job.last_card = cardRow(c, ev.conversation_id);
      break;
    }
    case "job.approved":
      job.approved_by = ev.actor.entity_id;
      if (job.state === "proposed") job.state = "approved";
      break;
    case "job.rejected":
      job.state = "rejected";
      break;
    case "job.state_changed": {
      const p = ev.payload;
      job.state = p.next_state;
      if (p.reason_code) job.reason_code = p.reason_code;
      job.last_state_ms = ms;
      if (p.next_state === "waiting_input") job.waiting_since_ms = ms;
      else delete job.waiting_since_ms;
      if (p.next_state !== "waiting_input") delete job.waiting_on;
      for (const a of p.artifact_refs ?? []) addArtifact(a);
      break;
    }
    case "job.progress": {
      const c = ev.payload.tracking_card;
      job.last_progress_ms = ms;
      job.last_card = cardRow(c, ev.conversation_id);
      if (c.progress.waiting_on && c.progress.waiting_on.length > 0) {
        job.waiting_on = c.progress.waiting_on;
        job.waiting_since_ms ??= ms;
      } else delete job.waiting_on;
      for (const a of c.artifacts_preview ?? []) addArtifact(a);
      break;
    }
    case "job.completed": {
      const c = ev.payload.finished_card;
      job.state = c.outcome.result;
      job.last_card = cardRow(c, ev.conversation_id);
      job.outcome = { result: c.outcome.result, summary: c.outcome.summary };
      delete job.waiting_on;
      for (const a of c.artifacts) addArtifact(a);
      break;
    }
    case "job.handed_over": {
      const p = ev.payload;
      job.owner_entity_id = p.to_entity_id;
      job.handed_over = { from_entity_id: p.from_entity_id, to_entity_id: p.to_entity_id, by_entity_id: ev.actor.entity_id, at: ev.ts, event_id: ev.event_id };
      // The person it was handed to is who it waits on now.
      job.waiting_on = [{ entity_id: p.to_entity_id, display_name: state.entities.get(p.to_entity_id)?.display_name ?? p.to_entity_id }];
      job.waiting_since_ms = ms;
      break;
    }
    case "job.artifact_attached":
      addArtifact(ev.payload.artifact);
      break;
    case "tool.called":
      job.last_tool_ms = ms;
      job.last_tool_call_id = ev.payload.tool_call_id;
      break;
    case "tool.result":
      if (ev.payload.status === "error" && ev.payload.error) job.last_error_code = ev.payload.error.error_code;
      else delete job.last_error_code;
      for (const a of ev.payload.artifacts ?? []) addArtifact(a);
      break;
    case "message.sent":
      // A card message: its card is the freshest one for the job (same card as the job event).
      if (ev.payload.card) job.last_card = cardRow(ev.payload.card, ev.conversation_id);
      break;
    default:
      break;
  }
  job.updated_at = ev.ts;
  job.last_activity_at = ev.ts;
  job.source_event_id = ev.event_id;
  deltas.unshift({ event: "job.update", data: { tenant_id: state.tenant_id, job: jobHeader(state, job) }, ...audience(state, job) });
  return deltas;
}

function audience(state: TenantState, job: JobRow): { audience?: ReadonlySet<string> } {
  const conv = state.conversations.get(job.conversation_id);
  return conv ? { audience: conv.participants } : {};
}
