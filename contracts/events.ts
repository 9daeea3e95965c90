import { LIMITS } from "./facts.js";
import { EMOJI_MAX_CHARS, isSingleEmoji } from "./emoji.js";
import { z } from "zod";
import { ZArtifactRef, ZJobCard } from "./cards.js";
import {
  ZActor,
  ZButtonId,
  ZCardId,
  ZConversationId,
  ZEntityId,
  ZEventId,
  ZIsoTime,
  ZJobId,
  ZRedactedValue,
  ZSeverity,
  ZTenantId,
  ZTraceId,
} from "./primitives.js";
import { ZActionSummary, ZChoice, ZCitation, ZRenderDoc, ZSurface } from "./llm.js";
import {
  ZJobCreatedPayload,
  ZJobProposedPayload,
  ZJobApprovedPayload,
  ZJobRejectedPayload,
  ZJobStateChangedPayload,
  ZJobProgressPayload,
  ZJobArtifactAttachedPayload,
  ZJobCompletedPayload,
  ZJobHandedOverPayload,
  ZJobAcknowledgedPayload,
  ZJobDisputedPayload,
  ZJobChangesRequestedPayload,
  ZJobInputProvidedPayload,
  ZJobReplyReceivedPayload,
  ZToolCalledPayload,
  ZToolResultPayload,
} from "./job-events.js";
import {
  ZEntityRegisteredPayload,
  ZEntityProfileUpdatedPayload,
  ZAgentToolModeSetPayload,
  ZEntityRoleChangedPayload,
  ZEntityDeactivatedPayload,
  ZEntityReactivatedPayload,
  ZAgentPausedPayload,
  ZAgentResumedPayload,
  ZPolicyOverridesSetPayload,
  ZEntityTokensRevokedPayload,
  ZContactUpsertedPayload,
} from "./workspace-events.js";

/**
 * Workspace-wide events (people joining, contacts) are not about any one chat; they carry this
 * reserved conversation id so every envelope still has the seed's required `conversation_id`.
 */
export const WORKSPACE_CONVERSATION_ID = "cnv_workspace";

/** The entity that signs policy decisions and other system events. */
export const SYSTEM_POLICY_ENTITY_ID = "system_policy_agent";

const short = (max: number) => z.string().max(max);

/** One `@mention` in a message: who is meant (the text keeps the visible `@Name`). */
export const ZMention = z.strictObject({ entity_id: ZEntityId });

export const ZMessageSentPayload = z.strictObject({
  message_id: z.string().min(1).max(128),
  kind: z.enum(["text", "card", "system", "artifact"]),
  body_text: short(LIMITS.messageChars).optional(),
  card: ZJobCard.optional(),
  artifact: ZArtifactRef.optional(),
  preview: z
    .object({ title: short(200).optional(), subtitle: short(200).optional(), severity: ZSeverity.optional() })
    .optional(),
  /** Set on the readable bubble the gateway writes when a person clicks a card button. */
  action: z.object({ card_id: ZCardId, button_id: ZButtonId, type: short(64), job_id: ZJobId.optional() }).optional(),
  /** Sensitive values typed into chat, moved to the vault; body_text holds their redacted form. */
  pii_refs: z.array(ZRedactedValue).max(50).optional(),
  reply_to_message_id: short(128).optional(),
  /** The sender's own id for this message (the request's `client_message_id`): the device that sent it
   * recognises the message on the stream and retires its pending bubble, even before the 202 arrives. */
  client_message_id: short(128).optional(),
  /** People and agents the text mentions (`@Name`), as entity ids: they are notified, and agents in groups answer only when mentioned. */
  mentions: z.array(ZMention).max(50).optional(),
  /** An agent's reply that executed an action: which job it hit, and whether that was assumed. */
  action_summary: ZActionSummary.optional(),
  /** Surfaces v0 validated by Office; their buttons carry `[op …]` tokens. */
  surfaces: z.array(ZSurface).max(6).optional(),
  /** A rich reply as the safe document AST; body_text keeps the plain-text fallback. */
  render: ZRenderDoc.optional(),
  citations: z.array(ZCitation).max(20).optional(),
  /** A clarifying question's choices, each a token a click sends back as the person's message. */
  choices: z.array(ZChoice).min(1).max(5).optional(),
  /** An agent's reminder of a booked meeting: whom it is for (they are notified) and the start it reminds of. */
  reminder: z
    .strictObject({
      for_entity_id: ZEntityId,
      starts_at: ZIsoTime,
      minutes_before: z.number().int().min(1).max(10_080),
      event_uid: short(200),
    })
    .optional(),
  /** A copy of another message, forwarded by the actor: which one, where it was and who wrote it (the policy pack checks all three). */
  forwarded_from: z
    .strictObject({
      conversation_id: ZConversationId,
      message_id: z.string().min(1).max(128),
      author_entity_id: ZEntityId,
    })
    .optional(),
  /** A call someone started here: the Jitsi Meet room this server named on its configured JITSI_BASE_URL (body_text is the same URL). */
  call: z.strictObject({ url: z.string().min(1).max(500) }).optional(),
  /** A reply in a thread: the root message it belongs to (one of the same conversation, not deleted, not itself in a thread). */
  thread_root_message_id: z.string().min(1).max(128).optional(),
});

export const ZMessageDeliveredPayload = z.strictObject({
  /** Everything in the conversation up to this tenant_seq has been read by the actor. */
  up_to_seq: z.number().int().nonnegative(),
  message_id: short(128).optional(),
  /** "delivered": reached one of the actor's devices, not yet read. Absent or "read": read. */
  mark: z.enum(["delivered", "read"]).optional(),
});

/** The author's new text for one of their messages (the timeline shows the latest, marked edited). */
export const ZMessageEditedPayload = z.strictObject({
  message_id: z.string().min(1).max(128),
  body_text: z.string().min(1).max(LIMITS.messageChars),
  pii_refs: z.array(ZRedactedValue).max(50).optional(),
  mentions: z.array(ZMention).max(50).optional(),
});

/**
 * A message withdrawn by its author (or an admin): every projection, search index and replay
 * forgets its text; the ledger keeps this event with a hash of the text that was withdrawn.
 */
export const ZMessageDeletedPayload = z.strictObject({
  message_id: z.string().min(1).max(128),
  body_hash: z
    .string()
    .regex(/^blake3:[0-9a-f]{16,64}$/)
    .optional(),
});

/** A reaction put on (`on: true`) or taken off a message by the actor. */
export const ZMessageReactedPayload = z.strictObject({
  message_id: z.string().min(1).max(128),
  emoji: z.string().min(1).max(EMOJI_MAX_CHARS).refine(isSingleEmoji, { message: "must be a single emoji" }),
  on: z.boolean(),
});

/** A message pinned to its conversation (`on: true`) or unpinned, by a member. */
export const ZMessagePinnedPayload = z.strictObject({
  message_id: z.string().min(1).max(128),
  on: z.boolean(),
});

/** The longest preview texts the ledger keeps (characters): a title, a description, a site name. */
export const PREVIEW_LIMITS = { url: 2000, title: 200, description: 300, siteName: 100 } as const;

/**
 * A link preview the server fetched for a link in a message (`actor` is the system): the page's
 * title, description and site name as plain text, cut to PREVIEW_LIMITS. No image: the server
 * does not fetch or serve pictures of other sites.
 */
export const ZMessagePreviewAddedPayload = z.strictObject({
  message_id: z.string().min(1).max(128),
  url: z.string().min(1).max(PREVIEW_LIMITS.url),
  title: z.string().min(1).max(PREVIEW_LIMITS.title).optional(),
  description: z.string().min(1).max(PREVIEW_LIMITS.description).optional(),
  site_name: z.string().min(1).max(PREVIEW_LIMITS.siteName).optional(),
});

/** The message's author took the preview of one of its links off (for everyone, for good). */
export const ZMessagePreviewRemovedPayload = z.strictObject({
  message_id: z.string().min(1).max(128),
  url: z.string().min(1).max(PREVIEW_LIMITS.url),
});

/** A member follows a message's thread (`on: true`: told of its new replies) or stops following it. */
export const ZThreadFollowedPayload = z.strictObject({
  message_id: z.string().min(1).max(128),
  on: z.boolean(),
});

/** A member has read a thread's replies up to `up_to_seq` (its unread mark). */
export const ZThreadReadPayload = z.strictObject({
  message_id: z.string().min(1).max(128),
  up_to_seq: z.number().int().min(1),
});

/** Someone (a person or an agent) joins a group conversation. */
export const ZConversationMemberAddedPayload = z.strictObject({ entity_id: ZEntityId });

/** Someone leaves a group (`reason: left`, the actor themself) or is removed by a member allowed to. */
export const ZConversationMemberRemovedPayload = z.strictObject({
  entity_id: ZEntityId,
  reason: z.enum(["left", "removed"]),
});

/** A group's new name. */
export const ZConversationRenamedPayload = z.strictObject({ title: z.string().min(1).max(120) });

export const ZConversationCreatedPayload = z.strictObject({
  conversation_id: ZConversationId,
  title: z.string().min(1).max(120),
  participants: z
    .array(z.object({ entity_id: ZEntityId }))
    .min(1)
    .max(500),
  kind: z.enum(["direct", "group"]).optional(),
  /** A group anyone of the workspace may find and join (`public`, a channel); absent or `private`: invite-only. */
  visibility: z.enum(["public", "private"]).optional(),
});

/** A person joins a public channel themself (the entity is the actor; the policy pack checks it is public and they are not in it yet). */
export const ZConversationJoinedPayload = z.strictObject({ entity_id: ZEntityId });

export const ZPolicyViolationPayload = z.strictObject({
  violated_policy_id: short(128),
  code: short(64),
  event_type: short(64),
  event_id: short(128),
  message_safe: short(500),
  mode: z.enum(["enforce", "warn"]).optional(),
});

/** Every event type the ledger accepts, with its payload schema. */
export const EVENT_PAYLOADS = {
  "message.sent": ZMessageSentPayload,
  "message.delivered": ZMessageDeliveredPayload,
  "message.edited": ZMessageEditedPayload,
  "message.deleted": ZMessageDeletedPayload,
  "message.reacted": ZMessageReactedPayload,
  "message.pinned": ZMessagePinnedPayload,
  "message.preview_added": ZMessagePreviewAddedPayload,
  "message.preview_removed": ZMessagePreviewRemovedPayload,
  "thread.followed": ZThreadFollowedPayload,
  "thread.read": ZThreadReadPayload,
  "conversation.created": ZConversationCreatedPayload,
  "conversation.member_added": ZConversationMemberAddedPayload,
  "conversation.joined": ZConversationJoinedPayload,
  "conversation.member_removed": ZConversationMemberRemovedPayload,
  "conversation.renamed": ZConversationRenamedPayload,
  "entity.registered": ZEntityRegisteredPayload,
  "entity.profile_updated": ZEntityProfileUpdatedPayload,
  "agent.tool_mode_set": ZAgentToolModeSetPayload,
  "entity.role_changed": ZEntityRoleChangedPayload,
  "entity.deactivated": ZEntityDeactivatedPayload,
  "entity.reactivated": ZEntityReactivatedPayload,
  "entity.tokens_revoked": ZEntityTokensRevokedPayload,
  "agent.paused": ZAgentPausedPayload,
  "agent.resumed": ZAgentResumedPayload,
  "policy.overrides_set": ZPolicyOverridesSetPayload,
  "contact.upserted": ZContactUpsertedPayload,
  "job.created": ZJobCreatedPayload,
  "job.proposed": ZJobProposedPayload,
  "job.approved": ZJobApprovedPayload,
  "job.rejected": ZJobRejectedPayload,
  "job.state_changed": ZJobStateChangedPayload,
  "job.progress": ZJobProgressPayload,
  "job.artifact_attached": ZJobArtifactAttachedPayload,
  "job.completed": ZJobCompletedPayload,
  "job.handed_over": ZJobHandedOverPayload,
  "job.acknowledged": ZJobAcknowledgedPayload,
  "job.disputed": ZJobDisputedPayload,
  "job.changes_requested": ZJobChangesRequestedPayload,
  "job.input_provided": ZJobInputProvidedPayload,
  "job.reply_received": ZJobReplyReceivedPayload,
  "policy.violation": ZPolicyViolationPayload,
  "tool.called": ZToolCalledPayload,
  "tool.result": ZToolResultPayload,
} as const;

export type TEventType = keyof typeof EVENT_PAYLOADS;
export const EVENT_TYPES = Object.keys(EVENT_PAYLOADS) as TEventType[];

export const ZIntegrity = z.object({
  hash: short(200).optional(),
  prev_hash: short(200).optional(),
  signature: short(400).optional(),
  signer_pubkey: short(400).optional(),
});

const envelope = {
  event_id: ZEventId,
  ts: ZIsoTime,
  tenant_id: ZTenantId,
  trace_id: ZTraceId,
  conversation_id: ZConversationId,
  job_id: ZJobId.optional(),
  actor: ZActor,
  causation_id: ZEventId.optional(),
  correlation_id: short(128).optional(),
  seq: z.number().int().nonnegative().optional(),
  integrity: ZIntegrity.optional(),
};

function eventSchema<T extends TEventType>(type: T) {
  return z.strictObject({ ...envelope, event_type: z.literal(type), payload: EVENT_PAYLOADS[type] });
}

/** The UBL event envelope, discriminated by `event_type`; unknown envelope keys are refused. */
export const ZUblEvent = z.discriminatedUnion("event_type", [
  eventSchema("message.sent"),
  eventSchema("message.delivered"),
  eventSchema("message.edited"),
  eventSchema("message.deleted"),
  eventSchema("message.reacted"),
  eventSchema("message.pinned"),
  eventSchema("message.preview_added"),
  eventSchema("message.preview_removed"),
  eventSchema("thread.followed"),
  eventSchema("thread.read"),
  eventSchema("conversation.created"),
  eventSchema("conversation.member_added"),
  eventSchema("conversation.joined"),
  eventSchema("conversation.member_removed"),
  eventSchema("conversation.renamed"),
  eventSchema("entity.registered"),
  eventSchema("entity.profile_updated"),
  eventSchema("agent.tool_mode_set"),
  eventSchema("entity.role_changed"),
  eventSchema("entity.deactivated"),
  eventSchema("entity.reactivated"),
  eventSchema("entity.tokens_revoked"),
  eventSchema("agent.paused"),
  eventSchema("agent.resumed"),
  eventSchema("policy.overrides_set"),
  eventSchema("contact.upserted"),
  eventSchema("job.created"),
  eventSchema("job.proposed"),
  eventSchema("job.approved"),
  eventSchema("job.rejected"),
  eventSchema("job.state_changed"),
  eventSchema("job.progress"),
  eventSchema("job.artifact_attached"),
  eventSchema("job.completed"),
  eventSchema("job.handed_over"),
  eventSchema("job.acknowledged"),
  eventSchema("job.disputed"),
  eventSchema("job.changes_requested"),
  eventSchema("job.input_provided"),
  eventSchema("job.reply_received"),
  eventSchema("policy.violation"),
  eventSchema("tool.called"),
  eventSchema("tool.result"),
]);

export type TUblEvent = z.infer<typeof ZUblEvent>;
export type TEventOf<T extends TEventType> = Extract<TUblEvent, { event_type: T }>;
export type TPayloadOf<T extends TEventType> = z.infer<(typeof EVENT_PAYLOADS)[T]>;

/** An event as stored: the envelope plus the ledger's position and integrity fields. */
export type TStoredEvent = TUblEvent & {
  seq: number;
  integrity: { hash: string; prev_hash: string };
};

export type TMessageSentPayload = z.infer<typeof ZMessageSentPayload>;
export type TEntityRegisteredPayload = z.infer<typeof ZEntityRegisteredPayload>;
export type TToolCalledPayload = z.infer<typeof ZToolCalledPayload>;
export type TToolResultPayload = z.infer<typeof ZToolResultPayload>;
export type TRedactedValue = z.infer<typeof ZRedactedValue>;
export type TJobReplyReceivedPayload = z.infer<typeof ZJobReplyReceivedPayload>;
