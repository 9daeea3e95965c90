import type { TEntityRegisteredPayload, TRedactedValue, TStoredEvent } from "../../../contracts/events.js";
import type { TJobState } from "../../../contracts/primitives.js";
import { stateAfter } from "../../job/transitions.js";
import { type HostLedgerApi, replayThenFollow } from "../../ledger/index.js";

/**
 * What Office needs to decide on a message, held in memory so that building a frame costs the
 * same on the first message as on the millionth. Rebuilt from one `ledger.replay` when created,
 * then kept current by `ledger.subscribe`, which runs synchronously after each commit and before
 * `append()` resolves: whatever Office appended is visible here when its `await` returns.
 *
 * Only small rows: entity profiles, participants, job ids per conversation/agent/tenant, a
 * summary per job (no cards — the full job is folded from its own indexed events when asked),
 * the last message id per (conversation, entity) and the last few chat texts per conversation.
 */

export interface EntityProfile {
  entity_id: string;
  actor_type: "human" | "agent";
  display_name: string;
  roles: string[];
  role?: string;
  capabilities: string[];
  allowed_tools: string[];
  memory_scope?: string;
  /** A person's own address (vault pointer): invites they ask for list them as an attendee. */
  email?: TRedactedValue;
  /** entity.profile_updated: the person's IANA zone (agents schedule in it) and language. */
  time_zone?: string;
  locale?: string;
  /** What an admin chose per tool (agent.tool_mode_set); a tool absent here has no mode set. */
  tool_modes?: Readonly<Record<string, "auto" | "approve" | "off">>;
  /** An admin paused this agent (agent.paused): it proposes and runs nothing until resumed. */
  paused?: boolean;
  /** An admin deactivated this entity (or removed the agent). */
  status?: "deactivated" | "removed";
}

/** The fields of `foldJob`'s JobView a frame reads, folded the same way, event by event. */
export interface JobSummary {
  job_id: string;
  tenant_id: string;
  conversation_id: string;
  owner_entity_id: string;
  title: string;
  state: TJobState;
  created_at: string;
  updated_at: string;
  /** The latest tool call (JobView.tools.at(-1)) and its outcome, if any. */
  last_tool?: { tool_call_id: string; tool_name: string; status?: "success" | "error"; error_code?: string };
  /** True once a person took the job over (job.handed_over): its agent no longer acts on it. */
  handed_over?: boolean;
  /** When the job last recorded a failed tool result: boot refills the circuit breaker from these. */
  last_error_at?: string;
  /** True once an invitee's answer is on record (job.reply_received): boot looks for its calendar write still owed. */
  replied?: boolean;
}

interface RecentText {
  event_id: string;
  /** The message's id: its edits replace `text`, its deletion removes it. */
  message_id: string;
  entity_id: string;
  /** The body, cut to what a frame document can hold. */
  text: string;
}

/** Chat messages a frame quotes: the latest few, plus the one being answered. */
const RECENT_TEXTS_KEPT = 7;
const TEXT_CHARS_KEPT = 1000;

export interface OfficeView {
  /** The entity's latest `entity.registered`, or undefined if it never registered. */
  profile(tenantId: string, entityId: string): EntityProfile | undefined;
  /** Participants of the conversation's `conversation.created`, in join order. */
  participants(tenantId: string, conversationId: string): readonly string[];
  /** Everyone registered in the tenant (people and agents), in registration order. */
  entities(tenantId: string): readonly EntityProfile[];
  /** The conversations an entity is a member of, oldest first. */
  conversationsOf(tenantId: string, entityId: string): readonly string[];
  job(tenantId: string, jobId: string): JobSummary | undefined;
  /** Job ids in creation order. */
  conversationJobIds(tenantId: string, conversationId: string): readonly string[];
  agentJobIds(tenantId: string, entityId: string): readonly string[];
  tenantJobIds(tenantId: string): readonly string[];
  lastMessageBy(tenantId: string, conversationId: string, entityId: string): string | undefined;
  /** The agent that wrote a message (by message_id), if an agent did: replying to it asks that agent. */
  agentAuthorOf(tenantId: string, messageId: string): string | undefined;
  /** The conversation's last RECENT_TEXTS_KEPT text messages with a body, oldest first. */
  recentTexts(tenantId: string, conversationId: string): readonly RecentText[];
  /** Folds one committed event in; the subscription calls it, exposed for rebuild checks. */
  apply(event: TStoredEvent): void;
  /** Every index as plain maps, for comparing a rebuilt view with a live one. */
  snapshot(): Record<string, Map<string, unknown>>;
  /** Stops following the ledger. */
  /** The job's events in order, when the view keeps them (`keepJobEvents`); undefined otherwise. */
  jobEvents(tenantId: string, jobId: string): readonly TStoredEvent[] | undefined;
  /** Resolves once the stored log is replayed (at once on SQLite, later on a ledger whose reads answer later). */
  ready: Promise<void>;
  close(): void;
}

const key = (...parts: string[]) => parts.join("\u0000");
const EMPTY: readonly never[] = Object.freeze([]);

function push<T>(map: Map<string, T[]>, k: string, value: T): void {
  const list = map.get(k);
  if (list) list.push(value);
  else map.set(k, [value]);
}

function toProfile(p: TEntityRegisteredPayload): EntityProfile {
  return {
    entity_id: p.entity_id,
    actor_type: p.actor_type,
    display_name: p.display_name,
    roles: p.roles ?? [],
    ...(p.role ? { role: p.role } : {}),
    capabilities: p.capabilities ?? [],
    allowed_tools: p.allowed_tools ?? [],
    ...(p.memory_scope ? { memory_scope: p.memory_scope } : {}),
    ...(p.email ? { email: p.email } : {}),
  };
}

export function createOfficeView(deps: {
  ledger: HostLedgerApi;
  onError?: (err: unknown, where: string) => void;
  /** Another index fed by the same replay and the same subscription (meeting reminders). */
  also?: (e: TStoredEvent) => void;
  /**
   * Keep every job's events in memory, for a ledger whose reads answer later (PostgreSQL): a job
   * is then folded from them at once, as SQLite's indexed read does.
   */
  keepJobEvents?: boolean;
}): OfficeView {
  const jobEvents = deps.keepJobEvents ? new Map<string, TStoredEvent[]>() : undefined;
  const profiles = new Map<string, EntityProfile>();
  const participants = new Map<string, string[]>();
  const jobs = new Map<string, JobSummary>();
  const byConversation = new Map<string, string[]>();
  const byAgent = new Map<string, string[]>();
  const byTenant = new Map<string, string[]>();
  const lastMessage = new Map<string, string>();
  const texts = new Map<string, RecentText[]>();
  const byTenantEntities = new Map<string, string[]>();
  const memberOf = new Map<string, string[]>();
  /** Names people chose for themselves (entity.profile_updated), which outlive a re-registration. */
  const profileNames = new Map<string, string>();
  /** tenant, message_id → agent entity id, for agents' messages only (what a reply can point at). */
  const agentMessages = new Map<string, string>();

  /** The summary's fields, folded as `evolve` folds them (state by the kernel's `stateAfter`). */
  function applyToJob(e: TStoredEvent, jobId: string): void {
    const k = key(e.tenant_id, jobId);
    if (e.event_type === "job.created") {
      const p = e.payload;
      jobs.set(k, {
        job_id: p.job_id,
        tenant_id: e.tenant_id,
        conversation_id: p.conversation_id,
        owner_entity_id: p.owner_entity_id,
        title: p.title,
        state: "draft",
        created_at: e.ts,
        updated_at: e.ts,
      });
      push(byConversation, key(e.tenant_id, e.conversation_id), jobId);
      push(byAgent, key(e.tenant_id, p.owner_entity_id), jobId);
      push(byTenant, e.tenant_id, jobId);
      return;
    }
    const job = jobs.get(k);
    if (!job) return;
    job.updated_at = e.ts;
    const next = stateAfter(e);
    if (next) job.state = next;
    switch (e.event_type) {
      case "job.proposed":
        job.title = e.payload.proposed_card.title;
        break;
      case "job.handed_over":
        job.owner_entity_id = e.payload.to_entity_id;
        job.handed_over = true;
        break;
      case "job.reply_received":
        job.replied = true;
        break;
      case "tool.called":
        job.last_tool = { tool_call_id: e.payload.tool_call_id, tool_name: e.payload.tool_name };
        break;
      case "tool.result": {
        if (e.payload.status === "error") job.last_error_at = e.ts;
        const t = job.last_tool;
        if (t && t.tool_call_id === e.payload.tool_call_id) {
          t.status = e.payload.status;
          if (e.payload.error) t.error_code = e.payload.error.error_code;
        }
        break;
      }
      default:
        break;
    }
  }

  /** What admins did to an entity: its roles, deactivated or removed, paused. */
  function applyAdmin(e: TStoredEvent): void {
    const p = e.payload as { entity_id: string; roles?: string[]; reason?: "deactivated" | "removed" };
    const k = key(e.tenant_id, p.entity_id);
    const before = profiles.get(k);
    if (!before) return;
    const { paused: _p, status: _s, ...rest } = before;
    const next: EntityProfile = { ...rest };
    if (e.event_type === "entity.role_changed") next.roles = p.roles ?? [];
    if (e.event_type === "agent.paused" || (before.paused && e.event_type !== "agent.resumed")) next.paused = true;
    if (e.event_type === "entity.deactivated" && p.reason) next.status = p.reason;
    else if (before.status && e.event_type !== "entity.reactivated") next.status = before.status;
    profiles.set(k, next);
  }

  function apply(e: TStoredEvent): void {
    if (e.job_id) {
      applyToJob(e, e.job_id);
      if (jobEvents) push(jobEvents, key(e.tenant_id, e.job_id), e);
    }
    switch (e.event_type) {
      case "entity.registered": {
        const k = key(e.tenant_id, e.payload.entity_id);
        const before = profiles.get(k);
        if (!before) push(byTenantEntities, e.tenant_id, e.payload.entity_id);
        // Registering again keeps the tool modes admins chose, pause and status, and the profile the person set.
        profiles.set(k, {
          ...toProfile(e.payload),
          ...(before?.tool_modes ? { tool_modes: before.tool_modes } : {}),
          ...(before?.time_zone ? { time_zone: before.time_zone } : {}),
          ...(before?.locale ? { locale: before.locale } : {}),
          ...(profileNames.has(k) ? { display_name: profileNames.get(k)! } : {}),
          ...(before?.paused ? { paused: true } : {}),
          ...(before?.status ? { status: before.status } : {}),
        });
        break;
      }
      case "entity.profile_updated": {
        const k = key(e.tenant_id, e.payload.entity_id);
        const p = profiles.get(k);
        if (!p) break;
        const next = { ...p };
        if (e.payload.display_name) {
          next.display_name = e.payload.display_name;
          profileNames.set(k, e.payload.display_name);
        }
        if (e.payload.time_zone) next.time_zone = e.payload.time_zone;
        if (e.payload.locale) next.locale = e.payload.locale;
        profiles.set(k, next);
        break;
      }
      case "entity.role_changed":
      case "entity.deactivated":
      case "entity.reactivated":
      case "agent.paused":
      case "agent.resumed":
        applyAdmin(e);
        break;
      case "agent.tool_mode_set": {
        const k = key(e.tenant_id, e.payload.agent_entity_id);
        const p = profiles.get(k);
        if (p) profiles.set(k, { ...p, tool_modes: { ...p.tool_modes, [e.payload.tool_name]: e.payload.mode } });
        break;
      }
      case "conversation.created": {
        const k = key(e.tenant_id, e.conversation_id);
        const list = participants.get(k) ?? [];
        for (const p of e.payload.participants) {
          if (list.includes(p.entity_id)) continue;
          list.push(p.entity_id);
          push(memberOf, key(e.tenant_id, p.entity_id), e.conversation_id);
        }
        participants.set(k, list);
        break;
      }
      case "conversation.member_added":
      case "conversation.joined": {
        const k = key(e.tenant_id, e.conversation_id);
        const list = participants.get(k);
        if (!list || list.includes(e.payload.entity_id)) break;
        participants.set(k, [...list, e.payload.entity_id]);
        push(memberOf, key(e.tenant_id, e.payload.entity_id), e.conversation_id);
        break;
      }
      case "conversation.member_removed": {
        const k = key(e.tenant_id, e.conversation_id);
        const list = participants.get(k);
        if (!list) break;
        participants.set(
          k,
          list.filter((id) => id !== e.payload.entity_id),
        );
        const mk = key(e.tenant_id, e.payload.entity_id);
        const convs = memberOf.get(mk);
        if (convs)
          memberOf.set(
            mk,
            convs.filter((c) => c !== e.conversation_id),
          );
        break;
      }
      case "message.sent": {
        if (e.actor.actor_type === "agent")
          agentMessages.set(key(e.tenant_id, e.payload.message_id), e.actor.entity_id);
        lastMessage.set(key(e.tenant_id, e.conversation_id, e.actor.entity_id), e.event_id);
        const body = e.payload.kind === "text" ? e.payload.body_text : undefined;
        if (body) {
          const k = key(e.tenant_id, e.conversation_id);
          const list = texts.get(k) ?? [];
          list.push({
            event_id: e.event_id,
            message_id: e.payload.message_id,
            entity_id: e.actor.entity_id,
            text: body.slice(0, TEXT_CHARS_KEPT),
          });
          if (list.length > RECENT_TEXTS_KEPT) list.shift();
          texts.set(k, list);
        }
        break;
      }
      case "message.edited":
      case "message.deleted": {
        // Agents read what people see now: the latest text, and nothing of a deleted message.
        const k = key(e.tenant_id, e.conversation_id);
        const list = texts.get(k);
        const at = list?.findIndex((t) => t.message_id === e.payload.message_id) ?? -1;
        if (!list || at < 0) break;
        if (e.event_type === "message.deleted") list.splice(at, 1);
        else list[at] = { ...list[at]!, text: e.payload.body_text.slice(0, TEXT_CHARS_KEPT) };
        break;
      }
      default:
        break;
    }
  }

  const also = deps.also;
  // Every event once: what is stored, then what commits from now on.
  const followed = replayThenFollow(deps.ledger, also ? (e) => (apply(e), also(e)) : apply, {
    onError: (err) => deps.onError?.(err, "office-view"),
  });
  let closed = false;
  let unsubscribe: (() => void) | undefined;
  const ready =
    followed instanceof Promise
      ? followed.then((u) => {
          if (closed) u();
          else unsubscribe = u;
        })
      : Promise.resolve(void (unsubscribe = followed));

  return {
    profile: (t, id) => profiles.get(key(t, id)),
    participants: (t, c) => participants.get(key(t, c)) ?? EMPTY,
    entities: (t) => (byTenantEntities.get(t) ?? EMPTY).map((id) => profiles.get(key(t, id))!),
    conversationsOf: (t, id) => memberOf.get(key(t, id)) ?? EMPTY,
    job: (t, j) => jobs.get(key(t, j)),
    conversationJobIds: (t, c) => byConversation.get(key(t, c)) ?? EMPTY,
    agentJobIds: (t, id) => byAgent.get(key(t, id)) ?? EMPTY,
    tenantJobIds: (t) => byTenant.get(t) ?? EMPTY,
    lastMessageBy: (t, c, id) => lastMessage.get(key(t, c, id)),
    recentTexts: (t, c) => texts.get(key(t, c)) ?? EMPTY,
    agentAuthorOf: (t, m) => agentMessages.get(key(t, m)),
    apply,
    snapshot: () => ({
      profiles,
      profileNames,
      participants,
      byTenantEntities,
      memberOf,
      jobs,
      byConversation,
      byAgent,
      byTenant,
      lastMessage,
      texts,
      agentMessages,
    }),
    jobEvents: (t, j) => (jobEvents ? (jobEvents.get(key(t, j)) ?? EMPTY) : undefined),
    ready,
    close() {
      closed = true;
      unsubscribe?.();
    },
  };
}
