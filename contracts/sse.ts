import { z } from "zod";
import { ZArtifactRef, ZCardButton } from "./cards.js";
import { ZConversationSummary, ZPresence, ZTimelineItem } from "./gateway.js";
import { ZConversationId, ZCursor, ZEntityId, ZIsoTime, ZJobId, ZJobState, ZTenantId } from "./primitives.js";

/**
 * Frames of `GET /v1/stream` (and, with `ledger.event`, of `GET /v1/ledger/stream`).
 * Each frame is `id: seq:N` / `event: <name>` / `data: <json>`; `id` is the resume cursor.
 */
export { SSE_EVENT_NAMES } from "./stream-events.js";

export const ZSseHello = z.object({
  tenant_id: ZTenantId,
  server_time: ZIsoTime,
  cursor: ZCursor,
  capabilities: z.object({ supports_resume: z.boolean(), supports_heartbeat: z.boolean() }),
});
export const ZSseTimelineAppend = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  item: ZTimelineItem,
});
/** An item changed in place (edited, deleted, reacted to, or the message it quotes changed): the whole item, replaced by event_id. */
export const ZSseTimelineUpdate = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  item: ZTimelineItem,
});
/** A new reply in a thread (to the conversation's members): it goes to the thread, never the timeline; the root's count arrives as timeline.update. */
export const ZSseThreadAppend = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  root_message_id: z.string(),
  item: ZTimelineItem,
});
/** To one person only: whether they follow a thread now, and how many of its replies they have not read. */
export const ZSseThreadUpdate = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  root_message_id: z.string(),
  following: z.boolean(),
  unread_count: z.number().int().min(0),
});
export const ZSseConversationUpdate = z.object({
  tenant_id: ZTenantId,
  conversation: ZConversationSummary.partial().extend({ conversation_id: ZConversationId }),
});
/** To a person removed from (or who left) a conversation: it leaves their list; nothing more of it reaches them. */
export const ZSseConversationRemoved = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  reason: z.enum(["left", "removed"]),
});
/**
 * A public channel was created, renamed, or someone joined or left it: to the whole workspace (its
 * Browse channels view). It names no message; whether the reader is in it is their conversation list's to say.
 */
export const ZSseChannelUpdate = z.object({
  tenant_id: ZTenantId,
  channel: z.object({
    conversation_id: ZConversationId,
    title: z.string(),
    member_count: z.number().int().min(0),
    created_at: ZIsoTime,
  }),
});
export const ZSseJobUpdate = z.object({
  tenant_id: ZTenantId,
  job: z.looseObject({
    job_id: ZJobId,
    conversation_id: ZConversationId,
    title: z.string(),
    state: ZJobState,
    updated_at: ZIsoTime,
    waiting_on: z.array(z.object({ entity_id: ZEntityId, display_name: z.string() })).optional(),
    /** What this reader may press now, on the card `actions_card_id` (the same as the Job Drawer's). */
    available_actions: z.array(ZCardButton),
    actions_card_id: z.string().optional(),
    /** Proposed, approved, in progress or waiting for input. */
    open: z.boolean().optional(),
  }),
});
export const ZSsePresenceUpdate = z.object({
  tenant_id: ZTenantId,
  entity_id: ZEntityId,
  presence: ZPresence.omit({ tenant_id: true, entity_id: true }),
});
export const ZSseArtifactAdded = z.object({
  tenant_id: ZTenantId,
  job_id: ZJobId,
  artifact: ZArtifactRef.extend({ produced_at: ZIsoTime.optional() }),
});
/** A person's (or agent's) profile changed: name, avatar, time zone, language. Sent to the whole workspace. */
export const ZSseEntityUpdate = z.object({
  tenant_id: ZTenantId,
  entity: z.object({
    entity_id: ZEntityId,
    actor_type: z.enum(["human", "agent"]),
    display_name: z.string(),
    avatar_url: z.string().optional(),
    time_zone: z.string().optional(),
    locale: z.string().optional(),
    status_text: z.string().optional(),
    status_until: ZIsoTime.optional(),
    dnd_until: ZIsoTime.optional(),
  }),
});
/**
 * The workspace's policy overrides changed (a `policy.overrides_set`): sent to its owners and
 * admins only, and naming nothing but the event, so the Policies screen reloads what it shows.
 */
export const ZSsePolicyUpdate = z.object({ tenant_id: ZTenantId, event_id: z.string() });
/**
 * Someone in the conversation is typing (to its other members only): shown until `until`, or
 * until their message arrives. Never in the ledger, never replayed on resume.
 */
export const ZSseTyping = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  entity_id: ZEntityId,
  display_name: z.string(),
  until: ZIsoTime,
});
export const ZSseHeartbeat = z.object({ tenant_id: ZTenantId, server_time: ZIsoTime });
export const ZSseError = z.object({
  tenant_id: ZTenantId,
  code: z.string(),
  message: z.string(),
  recommended_action: z.enum(["resync", "reconnect", "reauthenticate"]).optional(),
});

export type TSseHello = z.infer<typeof ZSseHello>;
export type TSseTimelineAppend = z.infer<typeof ZSseTimelineAppend>;
export type TSseJobUpdate = z.infer<typeof ZSseJobUpdate>;
export type TSsePresenceUpdate = z.infer<typeof ZSsePresenceUpdate>;
export type TSseError = z.infer<typeof ZSseError>;
