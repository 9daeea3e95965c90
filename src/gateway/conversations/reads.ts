import { formatCursor, parseCursor } from "../../../contracts/primitives.js";
import type { TTimelineItem } from "../../../contracts/gateway.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { memberConversation, memberJob } from "./conversations.js";
import { notFound, type Core } from "../core.js";
import { summarize } from "../projections/conversations.js";
import { jobHeader, ownerOf, viewerOf } from "../projections/jobs.js";
import { pageTimeline } from "../projections/timeline.js";
import { presentTimelineItem } from "../pii.js";
import { llmAudit } from "../jobs/assist.js";

/** Everything here reads the in-memory projections; the ledger is read only for raw events. */

export function cursorParam(raw: string | undefined, name: string, head: number): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const seq = parseCursor(raw);
  if (seq === null) throw new AppError("VALIDATION_ERROR", `${name} must look like seq:N`, { field: name });
  // Cursors are per tenant: one beyond this tenant's head is someone else's (or invented).
  if (seq > head) throw notFound("Cursor");
  return seq;
}

/** Members see the PII typed into their tenant's chat; the projection itself keeps only redactions. */
const presentItem = (core: Core, tenantId: string, item: TTimelineItem): TTimelineItem =>
  presentTimelineItem(tenantId, item, core.office.vault);

export function listConversations(core: Core, p: Principal) {
  const state = core.tenant(p.tenantId);
  const items = [...state.conversations.values()]
    .filter((c) => c.participants.has(p.entityId))
    .map((c) => withMute(core, p, summarize(state, c, p.entityId)))
    .sort(
      (a, b) =>
        (b.last_item_ts ?? "").localeCompare(a.last_item_ts ?? "") ||
        a.conversation_id.localeCompare(b.conversation_id),
    );
  return { tenant_id: p.tenantId, items, cursor: formatCursor(state.head) };
}

export function getConversation(core: Core, p: Principal, conversationId: string) {
  const state = core.tenant(p.tenantId);
  const conv = memberConversation(core, p, conversationId);
  const participants = conv.participant_entity_ids.map((id) => {
    const e = state.entities.get(id);
    return {
      entity_id: id,
      display_name: e?.display_name ?? id,
      actor_type: e?.actor_type ?? "human",
      ...(e?.roles.length ? { roles: e.roles } : {}),
      ...(e?.role ? { role: e.role } : {}),
      ...(e?.capabilities ? { capabilities: e.capabilities } : {}),
      presence: state.presence.get(id),
    };
  });
  return {
    tenant_id: p.tenantId,
    conversation: withMute(core, p, summarize(state, conv, p.entityId)),
    participants,
    cursor: formatCursor(state.head),
  };
}

/** The reader's own mute, beside the row the projection built (mutes are settings, not ledger facts). */
function withMute<T extends { conversation_id: string }>(core: Core, p: Principal, row: T): T & { muted?: true } {
  return core.notify.mutes.isMuted(p.tenantId, p.entityId, row.conversation_id) ? { ...row, muted: true } : row;
}

/** A page of the timeline: `limit` (1–1000, default 50) and `seq:N` cursors. */
export interface TimelineQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
  after?: string | undefined;
  before?: string | undefined;
}

export function getTimeline(core: Core, p: Principal, conversationId: string, q: TimelineQuery) {
  const state = core.tenant(p.tenantId);
  memberConversation(core, p, conversationId);
  const limit = q.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw new AppError("VALIDATION_ERROR", "limit must be an integer 1–1000", { field: "limit" });
  const after = cursorParam(q.cursor ?? q.after, "cursor", state.head);
  const before = cursorParam(q.before, "before", state.head + 1);
  const all = state.timeline.get(conversationId) ?? [];
  const items = pageTimeline(all, {
    ...(after !== undefined ? { after } : {}),
    ...(before !== undefined ? { before } : {}),
    limit,
  });
  const first = items[0];
  const hasOlder = first !== undefined && all[0] !== first;
  // The current head of every job with a card on this page. A card carries the state it was
  // posted in; a job rejected or cancelled without a later card would otherwise look still open
  // to a client that was not connected when it happened.
  const jobs = new Map<string, Record<string, unknown>>();
  const viewer = viewerOf(state, p.entityId);
  for (const it of items) {
    const jobId = it.message.card?.job_id;
    const job = jobId !== undefined && !jobs.has(jobId) ? state.jobs.get(jobId) : undefined;
    if (job) jobs.set(job.job_id, jobHeader(state, job, viewer));
  }
  return {
    tenant_id: p.tenantId,
    conversation_id: conversationId,
    items: items.map((it) => presentItem(core, p.tenantId, it)),
    jobs: [...jobs.values()],
    /** Pass as `before` to page back; null at the beginning. */
    next_cursor: hasOlder ? first.cursor : null,
    cursor: formatCursor(state.head),
  };
}

/**
 * The Job Drawer: header, actions for the current state, normalized timeline, artifacts, raw
 * events. The raw events are read from the ledger first; everything else is the projection as it
 * stands once they arrive, and raw events it has not taken in yet are left for the stream (after
 * `cursor`), so the drawer never shows an event its header does not know.
 */
export async function getJob(core: Core, p: Principal, jobId: string) {
  memberJob(core, p, jobId);
  const page = await core.ledger.query({ tenant_id: p.tenantId, job_id: jobId, limit: 1000 });
  const state = core.tenant(p.tenantId);
  const job = memberJob(core, p, jobId);
  const header = jobHeader(state, job, viewerOf(state, p.entityId));
  const raw = page.events
    .filter((e) => e.seq <= state.head)
    .map((e) => ({
      event_id: e.event_id,
      event_type: e.event_type,
      ts: e.ts,
      actor: e.actor,
      trace_id: e.trace_id,
      seq: e.seq,
      payload: e.payload,
    }));
  return {
    tenant_id: p.tenantId,
    conversation_id: job.conversation_id,
    job_id: job.job_id,
    title: job.title,
    goal: job.goal,
    state: job.state,
    owner: ownerOf(state, job),
    created_at: job.created_at,
    updated_at: job.updated_at,
    ...(job.constraints ? { constraints: job.constraints } : {}),
    ...(job.due_at ? { due_at: job.due_at } : {}),
    ...(job.priority ? { priority: job.priority } : {}),
    ...(job.parent_job_id ? { parent_job_id: job.parent_job_id } : {}),
    ...(job.waiting_on ? { waiting_on: job.waiting_on } : {}),
    available_actions: header.available_actions,
    open: header.open,
    ...(header.actions_card_id ? { actions_card_id: header.actions_card_id } : {}),
    ...(job.outcome ? { outcome: job.outcome } : {}),
    timeline: [...(state.jobEvents.get(jobId) ?? [])].reverse(),
    artifacts: (state.artifacts.get(jobId) ?? []).map(({ produced_by_event_id: _p, ...a }) => a),
    raw_events: raw,
    cursor: formatCursor(state.head),
    llm: llmAudit(core, p, job.job_id),
  };
}

export function listPresence(core: Core, p: Principal) {
  const state = core.tenant(p.tenantId);
  return { tenant_id: p.tenantId, items: [...state.presence.values()], cursor: formatCursor(state.head) };
}

export function listEntities(core: Core, p: Principal) {
  const state = core.tenant(p.tenantId);
  const items = [...state.entities.values()].map((e) => ({
    entity_id: e.entity_id,
    actor_type: e.actor_type,
    display_name: e.display_name,
    roles: e.roles,
    ...(e.role ? { role: e.role } : {}),
    ...(e.capabilities ? { capabilities: e.capabilities } : {}),
    ...(e.allowed_tools ? { allowed_tools: e.allowed_tools } : {}),
    ...(e.avatar_url ? { avatar_url: e.avatar_url } : {}),
    ...(e.time_zone ? { time_zone: e.time_zone } : {}),
    ...(e.locale ? { locale: e.locale } : {}),
    ...(e.status_text
      ? { status_text: e.status_text, ...(e.status_until ? { status_until: e.status_until } : {}) }
      : {}),
    ...(e.dnd_until ? { dnd_until: e.dnd_until } : {}),
    presence: state.presence.get(e.entity_id),
  }));
  return { tenant_id: p.tenantId, items, cursor: formatCursor(state.head) };
}
