import type { TArtifactRef, TCardButton } from "../../../contracts/cards.js";
import type { TJobTimelineItem, TPresence, TTimelineItem } from "../../../contracts/gateway.js";
import type { TJobState, TPriority } from "../../../contracts/primitives.js";
import type { TRedactedValue } from "../../../contracts/events.js";

/**
 * The projections of one tenant, held in memory and rebuilt from the ledger on boot.
 * Rows are small; nothing here is stored anywhere else.
 */
export interface EntityRow {
  entity_id: string;
  actor_type: "human" | "agent";
  display_name: string;
  roles: string[];
  role?: string;
  capabilities?: string[];
  allowed_tools?: string[];
  avatar_url?: string;
  /** entity.profile_updated: the IANA zone agents schedule in for this person, and their language. */
  time_zone?: string;
  locale?: string;
  /** The name and avatar the person chose (kept when they are registered again). */
  profile_name?: string;
  profile_avatar?: string;
  /** entity.profile_updated: the person asked for the e-mail digest (theirs alone to read). */
  email_digest?: boolean;
  /** entity.profile_updated: false when the person keeps when they read to themself. */
  read_receipts?: boolean;
  /** entity.profile_updated: a custom status and when it ends; do not disturb until. */
  status_text?: string;
  status_until?: string;
  dnd_until?: string;
  /** The person's own address (a vault pointer and its redaction). */
  email?: TRedactedValue;
  /** Set while an admin has it deactivated (a removed agent stays removed). */
  status?: "deactivated" | "removed";
  /** True while an admin has the agent paused. */
  paused?: boolean;
  registered_ms: number;
  updated_at: string;
  source_event_id: string;
}

export interface ContactRow {
  contact_id: string;
  display_name: string;
  organization?: string;
  kind: string;
  emails: TRedactedValue[];
  phones: TRedactedValue[];
  notes?: string;
  updated_at: string;
  source_event_id: string;
}

export interface ConversationRow {
  conversation_id: string;
  title: string;
  kind: "direct" | "group";
  participant_entity_ids: string[];
  participants: Set<string>;
  created_by: string;
  created_at: string;
  /** A public channel: anyone of the workspace may find and join it. */
  visibility?: "public";
  last_item_ts?: string;
  last_preview?: { kind: string; text?: string | undefined; job_id?: string; card_type?: string };
  /** entity → tenant_seq read up to (message.delivered, or their own last message). */
  read_marks: Map<string, number>;
  /** entity → tenant_seq one of their devices has received up to (at least their read mark). */
  delivered_marks: Map<string, number>;
  updated_at: string;
  source_event_id: string;
}

export interface CardRow {
  card_id: string;
  job_id: string;
  conversation_id: string;
  card_type: string;
  state: TJobState;
  buttons: TCardButton[];
}

export interface JobRow {
  job_id: string;
  conversation_id: string;
  title: string;
  goal: string;
  state: TJobState;
  owner_entity_id: string;
  created_at: string;
  updated_at: string;
  constraints?: string[];
  due_at?: string;
  priority?: TPriority;
  parent_job_id?: string;
  reason_code?: string;
  waiting_on?: Array<{ entity_id: string; display_name: string }>;
  waiting_since_ms?: number;
  approved_by?: string;
  last_tool_ms?: number;
  last_state_ms?: number;
  last_progress_ms?: number;
  last_activity_at?: string;
  last_tool_call_id?: string;
  last_error_code?: string;
  last_card?: CardRow;
  /** The Finished card's outcome (job.completed): what the drawer's summary says happened. */
  outcome?: { result: "completed" | "failed" | "cancelled" | "rejected"; summary: string };
  /** job.handed_over: the job is a person's now, and its agent no longer acts on it. */
  handed_over?: { from_entity_id: string; to_entity_id: string; by_entity_id: string; at: string; event_id: string };
  source_event_id: string;
}

interface ArtifactRow extends TArtifactRef {
  produced_by_event_id: string;
  produced_at: string;
}

/**
 * One thread: the replies to a root message, who follows it and how far each has read.
 * Following is automatic for the root's author and for everyone who replies; a `thread.followed`
 * overrides it for that person until they reply again (replying follows again).
 */
export interface ThreadRow {
  root_message_id: string;
  conversation_id: string;
  root_author: string;
  replies: TTimelineItem[];
  repliers: Set<string>;
  /** entity → their own choice (thread.followed), over the automatic rule. */
  chosen: Map<string, boolean>;
  /** entity → tenant_seq read up to (thread.read, their own reply, or following it). */
  read: Map<string, number>;
}

export interface TenantState {
  tenant_id: string;
  /** Last tenant_seq applied. */
  head: number;
  entities: Map<string, EntityRow>;
  contacts: Map<string, ContactRow>;
  conversations: Map<string, ConversationRow>;
  timeline: Map<string, TTimelineItem[]>;
  jobs: Map<string, JobRow>;
  jobEvents: Map<string, TJobTimelineItem[]>;
  artifacts: Map<string, ArtifactRow[]>;
  cards: Map<string, CardRow>;
  presence: Map<string, TPresence>;
  lastSeenMs: Map<string, number>;
  /** Not from the ledger: each person's open streams now, and when one last opened or closed. */
  streams: Map<string, number>;
  streamSeenMs: Map<string, number>;
  /** Indexes so presence and list rows never scan every job: in_progress/waiting_input jobs, */
  liveJobs: Set<string>;
  /** proposed jobs per owner, */
  proposedByOwner: Map<string, number>;
  /** and non-terminal jobs per conversation. */
  activeJobsByConversation: Map<string, Set<string>>;
  /** message_id → its timeline item (edits, deletions, reactions and replies find it here), */
  messages: Map<string, TTimelineItem>;
  /** and message_id → the messages replying to it (their quotes follow its edits and deletion). */
  repliesTo: Map<string, Set<string>>;
  /** conversation_id → its pinned messages' ids, in the order they were pinned. */
  pins: Map<string, string[]>;
  /** message_id → the links whose preview its author took off (a preview fetched later stays off). */
  previewsOff: Map<string, Set<string>>;
  /** root message_id → its thread (replies, followers, read marks), */
  threads: Map<string, ThreadRow>;
  /** and conversation_id → the roots of its threads. */
  threadsByConversation: Map<string, Set<string>>;
}

export function createTenantState(tenantId: string): TenantState {
  return {
    tenant_id: tenantId,
    head: 0,
    entities: new Map(),
    contacts: new Map(),
    conversations: new Map(),
    timeline: new Map(),
    jobs: new Map(),
    jobEvents: new Map(),
    artifacts: new Map(),
    cards: new Map(),
    presence: new Map(),
    lastSeenMs: new Map(),
    streams: new Map(),
    streamSeenMs: new Map(),
    liveJobs: new Set(),
    proposedByOwner: new Map(),
    activeJobsByConversation: new Map(),
    messages: new Map(),
    repliesTo: new Map(),
    pins: new Map(),
    previewsOff: new Map(),
    threads: new Map(),
    threadsByConversation: new Map(),
  };
}

/** One SSE delta produced by a reducer. `audience` limits it to some entities (a conversation's members). */
export interface Delta {
  event:
    | "timeline.append"
    | "timeline.update"
    | "thread.append"
    | "thread.update"
    | "conversation.update"
    | "conversation.removed"
    | "channel.update"
    | "job.update"
    | "presence.update"
    | "artifact.added"
    | "notification"
    | "entity.update"
    | "policy.update"
    | "typing";
  data: Record<string, unknown>;
  audience?: ReadonlySet<string>;
  /** Messages whose text this frame carries: deleting one rewrites the frame in the resume log. */
  carries?: readonly string[];
}

export function displayName(state: TenantState, entityId: string): string {
  return state.entities.get(entityId)?.display_name ?? (entityId.startsWith("system") ? "LogLine" : entityId);
}
