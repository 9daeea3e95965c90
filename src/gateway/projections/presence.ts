import type { TPresence, TPresenceState } from "../../../contracts/gateway.js";
import type { Delta, EntityRow, JobRow, TenantState } from "./state.js";

const PRESENCE_TTL = {
  humanOfflineMs: 30 * 60_000,
  /** A person with a page open but nothing done for this long is away. */
  humanAwayMs: 10 * 60_000,
  /** "Working" needs evidence this fresh; otherwise the owner shows available ("Paused"). */
  staleWorkMs: 3 * 60_000,
};

interface Derived {
  state: TPresenceState;
  job?: JobRow;
  detail?: string;
  /** When the state began if it began because time passed (a TTL), so `since` is the same however late we notice. */
  sinceMs?: number;
}

function evidenceMs(job: JobRow): number {
  return Math.max(job.last_tool_ms ?? 0, job.last_state_ms ?? 0, job.last_progress_ms ?? 0);
}

/** Seed order for "which job": latest tool.called, then latest state change, then latest progress. */
function moreRecent(a: JobRow, b: JobRow): boolean {
  const keys = (j: JobRow) => [j.last_tool_ms ?? 0, j.last_state_ms ?? 0, j.last_progress_ms ?? 0];
  const [ka, kb] = [keys(a), keys(b)];
  for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i]! > kb[i]!;
  return a.job_id > b.job_id;
}

function isWaitingOn(job: JobRow, entityId: string): boolean {
  if (job.state !== "waiting_input") return false;
  if (job.waiting_on && job.waiting_on.length > 0) return job.waiting_on.some((w) => w.entity_id === entityId);
  // Seed fallback: without an explicit waiting_on, the person who approved is the one who can
  // unblock, but only when the job is missing inputs.
  return job.approved_by === entityId && (job.reason_code ?? "").includes("input");
}

/** The seed's derivation, pure: offline → waiting_on_you → working (with evidence) → available. */
function derivePresence(state: TenantState, entity: EntityRow, nowMs: number): Derived {
  // What an admin did comes first: a removed or deactivated entity is away, a paused agent says so.
  if (entity.status) return { state: "offline", detail: entity.status === "removed" ? "Removed" : "Deactivated" };
  if (entity.paused) return { state: "available", detail: "Paused" };
  const lastSeen = state.lastSeenMs.get(entity.entity_id) ?? entity.registered_ms;
  // Agents run inside this server: while it is up, they are here (paused or removed aside).
  const connected = (state.streams.get(entity.entity_id) ?? 0) > 0;
  if (entity.actor_type === "human" && !connected && nowMs - lastSeen > PRESENCE_TTL.humanOfflineMs)
    return { state: "offline", sinceMs: lastSeen + PRESENCE_TTL.humanOfflineMs };

  let waiting: JobRow | undefined;
  let working: JobRow | undefined;
  let stale: JobRow | undefined;
  const hasProposals = (state.proposedByOwner.get(entity.entity_id) ?? 0) > 0;
  for (const jobId of state.liveJobs) {
    const job = state.jobs.get(jobId)!;
    if (entity.actor_type === "human" && isWaitingOn(job, entity.entity_id)) {
      if (!waiting || (job.waiting_since_ms ?? 0) > (waiting.waiting_since_ms ?? 0)) waiting = job;
    }
    if (job.owner_entity_id !== entity.entity_id) continue;
    if (job.state !== "in_progress") continue;
    if (nowMs - evidenceMs(job) <= PRESENCE_TTL.staleWorkMs) {
      if (!working || moreRecent(job, working)) working = job;
    } else if (!stale || evidenceMs(job) > evidenceMs(stale)) stale = job;
  }
  if (waiting) return { state: "waiting_on_you", job: waiting, detail: "Needs your input" };
  if (working) return { state: "working", job: working, detail: `Working on ${working.title}` };
  if (stale) return { state: "available", detail: "Paused", sinceMs: evidenceMs(stale) + PRESENCE_TTL.staleWorkMs };
  return { state: "available", ...(hasProposals ? { detail: "Has proposals" } : {}) };
}

/**
 * Re-evaluates one entity at `nowMs` and returns a presence.update when what a person would see
 * changed (state, job, detail, or a person's connection). `last_seen_at` moves silently.
 */
export function evaluatePresence(state: TenantState, entityId: string, nowMs: number): Delta | null {
  const entity = state.entities.get(entityId);
  if (!entity) return null;
  const d = derivePresence(state, entity, nowMs);
  const prev = state.presence.get(entityId);
  const lastSeen = state.lastSeenMs.get(entityId);
  const next: TPresence = {
    tenant_id: state.tenant_id,
    entity_id: entityId,
    state: d.state,
    ...(d.job ? { job_id: d.job.job_id, job_title: d.job.title } : {}),
    since: prev?.since ?? new Date(entity.registered_ms).toISOString(),
    ...(lastSeen !== undefined ? { last_seen_at: new Date(lastSeen).toISOString() } : {}),
    ...(d.detail ? { detail: d.detail } : {}),
  };
  if (entity.actor_type === "human") {
    const seen = Math.max(lastSeen ?? entity.registered_ms, state.streamSeenMs.get(entityId) ?? 0);
    next.last_seen_at = new Date(seen).toISOString();
    next.connection =
      (state.streams.get(entityId) ?? 0) > 0
        ? nowMs - seen > PRESENCE_TTL.humanAwayMs
          ? "away"
          : "online"
        : "offline";
  }
  const changed =
    !prev ||
    prev.state !== next.state ||
    prev.job_id !== next.job_id ||
    prev.detail !== next.detail ||
    prev.job_title !== next.job_title;
  // `since` dates the ledger-derived state alone, so a restart (no pages open yet) rebuilds it the same.
  if (changed && prev)
    next.since = new Date(d.sinceMs !== undefined && prev.state !== next.state ? d.sinceMs : nowMs).toISOString();
  state.presence.set(entityId, next);
  if (!changed && prev?.connection === next.connection) return null;
  return { event: "presence.update", data: presenceFrame(next) };
}

export function presenceFrame(p: TPresence): Record<string, unknown> {
  const { tenant_id, entity_id, ...presence } = p;
  return { tenant_id, entity_id, presence };
}

/** Entities whose presence an event can change: its actor, the job's owner, the people it waits on. */
export function affectedEntities(state: TenantState, actorId: string, jobId: string | undefined): string[] {
  const out = new Set([actorId]);
  const job = jobId ? state.jobs.get(jobId) : undefined;
  if (job) {
    out.add(job.owner_entity_id);
    for (const w of job.waiting_on ?? []) out.add(w.entity_id);
    if (job.approved_by) out.add(job.approved_by);
  }
  return [...out];
}
