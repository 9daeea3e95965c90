import type { TJobCard } from "../../../contracts/cards.js";
import type { TStoredEvent } from "../../../contracts/events.js";
import { isOpenState, stateAfter } from "../../job/transitions.js";
import { summarize, type Viewer } from "../../job/summarize.js";
import type { CardRow, Delta, JobRow, TenantState } from "./state.js";

/**
 * The job's header as `viewer` sees it: its state, owner and who it waits on, and the buttons
 * this person may press now (the job kernel's `summarize`: the chat card shows exactly these).
 * Without a viewer the actions are those of a person with no workspace roles.
 */
export function jobHeader(state: TenantState, job: JobRow, viewer?: Viewer): Record<string, unknown> {
  const summary = summarize(job, viewer ?? { entity_id: "", roles: [] });
  return {
    job_id: job.job_id,
    conversation_id: job.conversation_id,
    title: job.title,
    state: job.state,
    updated_at: job.updated_at,
    owner: ownerOf(state, job),
    ...(job.waiting_on ? { waiting_on: job.waiting_on } : {}),
    available_actions: summary.actions,
    open: isOpenState(job.state),
    ...(summary.card_id ? { actions_card_id: summary.card_id } : {}),
    ...(job.last_error_code ? { last_error_code: job.last_error_code } : {}),
    ...(job.handed_over ? { handed_over: job.handed_over } : {}),
  };
}

/** A member as `summarize` sees them: their id and roles (none for someone unknown). */
export function viewerOf(state: TenantState, entityId: string): Viewer {
  return { entity_id: entityId, roles: state.entities.get(entityId)?.roles ?? [] };
}

export function ownerOf(state: TenantState, job: JobRow) {
  const e = state.entities.get(job.owner_entity_id);
  return {
    entity_id: job.owner_entity_id,
    display_name: e?.display_name ?? job.owner_entity_id,
    actor_type: e?.actor_type ?? ("agent" as const),
  };
}

function cardRow(card: TJobCard, conversationId: string): CardRow {
  return {
    card_id: card.card_id,
    job_id: card.job_id,
    conversation_id: conversationId,
    card_type: card.card_type,
    state: card.state,
    buttons: card.buttons,
  };
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
  if (
    !ev.event_type.startsWith("job.") &&
    !ev.event_type.startsWith("tool.") &&
    !(ev.event_type === "message.sent" && ev.payload.card)
  )
    return [];
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
    deltas.push({
      event: "artifact.added",
      data: { tenant_id: state.tenant_id, job_id: jobId, artifact },
      ...audience(state, job),
    });
  };

  // The state moves by the job kernel's one rule, the same in every fold.
  const next = stateAfter(ev);
  if (next && ev.event_type !== "job.created") job.state = next;
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
      job.last_card = cardRow(c, ev.conversation_id);
      break;
    }
    case "job.approved":
      job.approved_by = ev.actor.entity_id;
      break;
    case "job.state_changed": {
      const p = ev.payload;
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
      job.last_card = cardRow(c, ev.conversation_id);
      job.outcome = { result: c.outcome.result, summary: c.outcome.summary };
      delete job.waiting_on;
      for (const a of c.artifacts) addArtifact(a);
      break;
    }
    case "job.handed_over": {
      const p = ev.payload;
      job.owner_entity_id = p.to_entity_id;
      job.handed_over = {
        from_entity_id: p.from_entity_id,
        to_entity_id: p.to_entity_id,
        by_entity_id: ev.actor.entity_id,
        at: ev.ts,
        event_id: ev.event_id,
      };
      // The person it was handed to is who it waits on now.
      job.waiting_on = [
        { entity_id: p.to_entity_id, display_name: state.entities.get(p.to_entity_id)?.display_name ?? p.to_entity_id },
      ];
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
      // A later Finished card of a finished job (an answer to its invite, its meeting moved) is what the drawer says happened.
      if (ev.payload.card?.card_type === "job.finished" && job.outcome)
        job.outcome = { result: ev.payload.card.outcome.result, summary: ev.payload.card.outcome.summary };
      break;
    default:
      break;
  }
  job.updated_at = ev.ts;
  job.last_activity_at = ev.ts;
  job.source_event_id = ev.event_id;
  deltas.unshift(...jobUpdates(state, job));
  return deltas;
}

/**
 * One job.update frame per group of members who may do the same things with the job (usually
 * one or two: approvers and everyone else), each carrying that group's actions. What a member
 * may do depends on the job and their roles only, so the header is made once per set of roles.
 */
function jobUpdates(state: TenantState, job: JobRow): Delta[] {
  const conv = state.conversations.get(job.conversation_id);
  if (!conv) return [{ event: "job.update", data: { tenant_id: state.tenant_id, job: jobHeader(state, job) } }];
  const byRoles = new Map<string, Set<string>>();
  for (const id of conv.participants) {
    const k = (state.entities.get(id)?.roles ?? []).join("\u0000");
    const members = byRoles.get(k);
    if (members) members.add(id);
    else byRoles.set(k, new Set([id]));
  }
  const byActions = new Map<string, { header: Record<string, unknown>; members: Set<string> }>();
  for (const members of byRoles.values()) {
    const header = jobHeader(state, job, viewerOf(state, members.values().next().value as string));
    const k = JSON.stringify(header.available_actions);
    const g = byActions.get(k);
    if (g) for (const m of members) g.members.add(m);
    else byActions.set(k, { header, members });
  }
  return [...byActions.values()].map((g) => ({
    event: "job.update",
    data: { tenant_id: state.tenant_id, job: g.header },
    audience: g.members,
  }));
}

function audience(state: TenantState, job: JobRow): { audience?: ReadonlySet<string> } {
  const conv = state.conversations.get(job.conversation_id);
  return conv ? { audience: conv.participants } : {};
}
