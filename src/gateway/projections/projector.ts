import type { TStoredEvent } from "../../../contracts/events.js";
import { ACTIVE_JOB_STATES } from "../../../contracts/primitives.js";
import { applyConversations, receiptsDelta } from "./conversations.js";
import { applyEntities, entityView } from "./entities.js";
import { applyJobEvents } from "./job-events.js";
import { applyJobs } from "./jobs.js";
import { applyMembership } from "./membership.js";
import { affectedEntities, evaluatePresence } from "./presence.js";
import { createTenantState, type Delta, type JobRow, type TenantState } from "./state.js";
import { applyTimeline } from "./timeline.js";
import { applyMessageChanges } from "./message-changes.js";
import { applyPolicies } from "./policies.js";
import { applyThreadMarks } from "./threads.js";

export interface Projector {
  tenant(tenantId: string): TenantState | undefined;
  tenants(): IterableIterator<TenantState>;
  /**
   * Folds one stored event into its tenant's projections and returns the SSE deltas, in order.
   * Events at or below the tenant's head are ignored, so replay and live tail can overlap.
   */
  apply(ev: TStoredEvent): Delta[];
  /** Re-evaluates presence at `nowMs` (a TTL may have expired) for every entity of a tenant. */
  tick(tenant: TenantState, nowMs: number): Delta[];
}

const ACTIVE = ACTIVE_JOB_STATES as readonly string[];

export function createProjector(): Projector {
  const states = new Map<string, TenantState>();

  function indexJob(state: TenantState, before: { state: string; owner: string } | undefined, job: JobRow): void {
    if (before?.state === "proposed") bump(state.proposedByOwner, before.owner, -1);
    if (job.state === "proposed") bump(state.proposedByOwner, job.owner_entity_id, 1);
    if (job.state === "in_progress" || job.state === "waiting_input") state.liveJobs.add(job.job_id);
    else state.liveJobs.delete(job.job_id);
    let set = state.activeJobsByConversation.get(job.conversation_id);
    if (ACTIVE.includes(job.state)) {
      if (!set) state.activeJobsByConversation.set(job.conversation_id, (set = new Set()));
      set.add(job.job_id);
    } else set?.delete(job.job_id);
  }

  return {
    tenant: (id) => states.get(id),
    tenants: () => states.values(),
    apply(ev) {
      let state = states.get(ev.tenant_id);
      if (!state) states.set(ev.tenant_id, (state = createTenantState(ev.tenant_id)));
      if (ev.seq <= state.head) return [];
      const evMs = Date.parse(ev.ts);
      const touched = new Set(affectedEntities(state, ev.actor.entity_id, ev.job_id));
      const deltas: Delta[] = [];
      // A TTL may have run out before this event: notice it at the event's time first, so the
      // live path (timer) and a boot replay reach the same presence and the same `since`.
      for (const id of touched) {
        const d = evaluatePresence(state, id, evMs);
        if (d) deltas.push(d);
      }
      if (ev.event_type !== "policy.violation") {
        state.lastSeenMs.set(ev.actor.entity_id, Math.max(state.lastSeenMs.get(ev.actor.entity_id) ?? 0, evMs));
      }
      const job = ev.job_id ? state.jobs.get(ev.job_id) : undefined;
      const before = job ? { state: job.state, owner: job.owner_entity_id } : undefined;

      applyEntities(state, ev);
      if (ev.event_type === "entity.profile_updated") {
        const row = state.entities.get(ev.payload.entity_id);
        // Everyone in the workspace sees names and avatars, so every stream of the tenant gets it.
        if (row) deltas.push({ event: "entity.update", data: { tenant_id: state.tenant_id, entity: entityView(row) } });
        // Turning read receipts off (or on) changes what their conversations show of them.
        if (row && ev.payload.read_receipts !== undefined) {
          for (const conv of state.conversations.values())
            if (conv.participants.has(row.entity_id)) deltas.push(receiptsDelta(state, conv));
        }
      }
      deltas.push(...applyTimeline(state, ev));
      deltas.push(...applyMessageChanges(state, ev));
      deltas.push(...applyThreadMarks(state, ev));
      deltas.push(...applyConversations(state, ev));
      deltas.push(...applyMembership(state, ev));
      deltas.push(...applyJobs(state, ev));
      deltas.push(...applyPolicies(state, ev));
      applyJobEvents(state, ev);

      const after = ev.job_id ? state.jobs.get(ev.job_id) : undefined;
      if (after) indexJob(state, before, after);
      for (const id of affectedEntities(state, ev.actor.entity_id, ev.job_id)) touched.add(id);
      if (ev.event_type === "entity.registered") touched.add(ev.payload.entity_id);
      if (
        ev.event_type === "entity.deactivated" ||
        ev.event_type === "entity.reactivated" ||
        ev.event_type === "agent.paused" ||
        ev.event_type === "agent.resumed"
      ) {
        touched.add(ev.payload.entity_id);
      }
      for (const id of touched) {
        const d = evaluatePresence(state, id, evMs);
        if (d) deltas.push(d);
      }
      state.head = ev.seq;
      return deltas;
    },
    tick(state, nowMs) {
      const deltas: Delta[] = [];
      for (const id of state.entities.keys()) {
        const d = evaluatePresence(state, id, nowMs);
        if (d) deltas.push(d);
      }
      return deltas;
    },
  };
}

function bump(m: Map<string, number>, k: string, by: number): void {
  const v = (m.get(k) ?? 0) + by;
  if (v <= 0) m.delete(k);
  else m.set(k, v);
}
