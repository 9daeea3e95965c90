import { LIMITS } from "./facts.js";
import { EMOJI_MAX_CHARS, isSingleEmoji } from "./emoji.js";
import { z } from "zod";
import { ZArtifactRef, ZCardAction, ZFinishedCard, ZFormalizeCard, ZJobCard, ZTrackingCard } from "./cards.js";
import {
  ZActor,
  ZButtonId,
  ZCardId,
  ZConversationId,
  ZEntityId,
  ZEventId,
  ZIsoTime,
  ZJobId,
  ZJobState,
  ZSeverity,
  ZTenantId,
  ZTraceId,
} from "./primitives.js";
import { ZActionSummary, ZChoice, ZCitation, ZRenderDoc, ZSurface } from "./llm.js";
import { ZWhen } from "./when.js";

/**
 * Workspace-wide events (people joining, contacts) are not about any one chat; they carry this
 * reserved conversation id so every envelope still has the seed's required `conversation_id`.
 */
export const WORKSPACE_CONVERSATION_ID = "cnv_workspace";

/** The entity that signs policy decisions and other system events. */
export const SYSTEM_POLICY_ENTITY_ID = "system_policy_agent";

const short = (max: number) => z.string().max(max);

/**
 * A human click that caused an event. Carried by every human job event so the ledger can check
 * that the button was really offered on a card of that job (`policy.card_provenance`).
 */
const provenance = {
  card_id: ZCardId.optional(),
  button_id: ZButtonId.optional(),
  action: ZCardAction.optional(),
};

/** A value that was sensitive: the ledger keeps a redacted preview, a salted hash and a vault pointer. */
export const ZRedactedValue = z.object({
  redacted: short(200),
  hash: z
    .string()
    .regex(/^blake3:[0-9a-f]{16,64}$/)
    .optional(),
  vault_ref: z
    .string()
    .regex(/^vault_ref:[A-Za-z0-9_-]{1,100}$/)
    .optional(),
});

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

export const ZEntityRegisteredPayload = z.strictObject({
  entity_id: ZEntityId,
  actor_type: z.enum(["human", "agent"]),
  display_name: z.string().min(1).max(120),
  /** Authority roles: job_approver, admin, job_owner, member. */
  roles: z.array(short(64)).max(20).default([]),
  /** Job title shown as a badge (agents: "Scheduler", "Billing Agent"). */
  role: short(64).optional(),
  capabilities: z.array(short(64)).max(30).optional(),
  allowed_tools: z.array(short(128)).max(50).optional(),
  memory_scope: short(64).optional(),
  avatar_url: short(500).optional(),
  /** A person's own address, kept in the vault: invites they ask for list them as an attendee. */
  email: ZRedactedValue.optional(),
});

/** A person's own profile: the name others see, an avatar, their time zone (IANA) and language. */
export const ZEntityProfileUpdatedPayload = z.strictObject({
  entity_id: ZEntityId,
  display_name: z.string().min(1).max(120).optional(),
  /** A picture uploaded to this server (`/v1/avatars/…`), or "" when removed: never an address from elsewhere. */
  avatar_url: z
    .string()
    .regex(/^(?:\/v1\/avatars\/[A-Za-z0-9_-]{1,100})?$/)
    .optional(),
  time_zone: short(64).optional(),
  locale: short(35).optional(),
  /** The person wants an e-mail of what waited on them (DIGEST_AFTER_MINUTES). */
  email_digest: z.boolean().optional(),
  /** false: the others in my conversations see my messages delivered, never read. */
  read_receipts: z.boolean().optional(),
  /** A custom status everyone sees ("" clears it), and when it ends by itself ("" never). */
  status_text: z.string().max(LIMITS.statusChars).optional(),
  status_until: z.union([ZIsoTime, z.literal("")]).optional(),
  /** Do not disturb until then ("" ends it): no notifications, push or digest, meanwhile. */
  dnd_until: z.union([ZIsoTime, z.literal("")]).optional(),
});

/**
 * What an agent may do with one tool, chosen by an admin: `auto` runs without asking, `approve`
 * runs only in a job a person approved, `off` not at all. The policy pack enforces it.
 */
export const ZAgentToolModeSetPayload = z.strictObject({
  agent_entity_id: ZEntityId,
  tool_name: short(128).min(1),
  mode: z.enum(["auto", "approve", "off"]),
});

/**
 * Administration of people and agents. `roles` is the entity's whole new set of authority roles
 * (`owner`, `admin`, `job_approver`, `member`, …): owners and admins change them, only an owner
 * makes or unmakes an owner, and a workspace always keeps one.
 */
export const ZEntityRoleChangedPayload = z.strictObject({ entity_id: ZEntityId, roles: z.array(short(64)).max(20) });

/**
 * A person (or agent) an admin turned off: every token of theirs stops working at once.
 * `removed` is for an agent taken out of the workspace for good (it cannot be reactivated).
 */
export const ZEntityDeactivatedPayload = z.strictObject({
  entity_id: ZEntityId,
  reason: z.enum(["deactivated", "removed"]),
});

/** A deactivated person back in: they sign in again with a new link. */
export const ZEntityReactivatedPayload = z.strictObject({ entity_id: ZEntityId });

/** An agent an admin paused proposes and runs nothing until resumed. */
export const ZAgentPausedPayload = z.strictObject({ entity_id: ZEntityId });
export const ZAgentResumedPayload = z.strictObject({ entity_id: ZEntityId });

/** A policy of the pack, by id (`policy.message_edit_window`). */
export const ZPolicyId = z.string().regex(/^policy\.[a-z0-9_]{1,64}$/, "must be a policy id (policy.<name>)");
/** A deployment parameter a rule names (`message_edit_window_seconds`). */
export const ZPolicyParamName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, "must be a parameter name (lower case, digits, _)");
export const ZPolicyMode = z.enum(["enforce", "warn", "off"]);
/** At most this many overrides of each kind in one set (the pack has far fewer policies). */
export const MAX_POLICY_OVERRIDES = 100;

/**
 * A workspace's overrides of the policy pack, set by an owner or admin: the whole set each time
 * (an empty one returns every policy to the pack). `modes`: policy → enforce / warn / off;
 * `params`: the parameters the pack's rules name → a whole number. Which policies a workspace may
 * change, to which modes, and each parameter's range are the pack's own rule
 * (`policy.override_limits`): tenant isolation, the hash chain's inputs and raw PII never bend.
 */
export const ZPolicyOverridesSetPayload = z.strictObject({
  modes: z.record(ZPolicyId, ZPolicyMode).refine((m) => Object.keys(m).length <= MAX_POLICY_OVERRIDES, {
    message: `at most ${MAX_POLICY_OVERRIDES} policies`,
  }),
  params: z
    .record(ZPolicyParamName, z.number().int().min(0).max(1_000_000_000))
    .refine((m) => Object.keys(m).length <= MAX_POLICY_OVERRIDES, {
      message: `at most ${MAX_POLICY_OVERRIDES} parameters`,
    }),
});

/**
 * An admin ended sign-ins of a person: one token (`token_id`, its public id, never the secret)
 * or all of them; `rotated` when a fresh sign-in link was issued in the same act.
 */
export const ZEntityTokensRevokedPayload = z.strictObject({
  entity_id: ZEntityId,
  token_id: z
    .string()
    .regex(/^tok_[0-9a-f]{20}$/)
    .optional(),
  rotated: z.boolean(),
});

export const ZContactUpsertedPayload = z.strictObject({
  contact_id: short(128).min(1),
  display_name: z.string().min(1).max(120),
  organization: short(120).optional(),
  kind: z.enum(["customer", "vendor", "partner", "other"]).default("other"),
  emails: z.array(ZRedactedValue).max(10).default([]),
  phones: z.array(ZRedactedValue).max(10).default([]),
  notes: short(1000).optional(),
  deleted: z.boolean().optional(),
});

export const ZJobCreatedPayload = z.strictObject({
  job_id: ZJobId,
  title: z.string().min(1).max(120),
  conversation_id: ZConversationId,
  owner_entity_id: ZEntityId,
  parent_job_id: ZJobId.optional(),
  /** The person who asked for the job (a job started without an approval waits on them when it needs someone). */
  requested_by: ZEntityId.optional(),
});

export const ZJobProposedPayload = z.strictObject({ job_id: ZJobId, proposed_card: ZFormalizeCard });

export const ZJobApprovedPayload = z.strictObject({ job_id: ZJobId, ...provenance });

export const ZJobRejectedPayload = z.strictObject({
  job_id: ZJobId,
  reason_code: short(64).optional(),
  reason_text: short(1000).optional(),
  ...provenance,
});

export const ZJobStateChangedPayload = z.strictObject({
  job_id: ZJobId,
  prev_state: ZJobState,
  next_state: ZJobState,
  reason_code: short(64).optional(),
  note: short(500).optional(),
  artifact_refs: z.array(ZArtifactRef).max(20).optional(),
  ...provenance,
});

export const ZJobProgressPayload = z.strictObject({ job_id: ZJobId, tracking_card: ZTrackingCard });

export const ZJobArtifactAttachedPayload = z.strictObject({ job_id: ZJobId, artifact: ZArtifactRef });

export const ZJobCompletedPayload = z.strictObject({ job_id: ZJobId, finished_card: ZFinishedCard });

/** A job given to a person: they become its owner, and its agent stops acting on it. */
export const ZJobHandedOverPayload = z.strictObject({
  job_id: ZJobId,
  from_entity_id: ZEntityId,
  to_entity_id: ZEntityId,
  note: short(500).optional(),
  ...provenance,
});

export const ZJobAcknowledgedPayload = z.strictObject({ job_id: ZJobId, ...provenance });

export const ZJobDisputedPayload = z.strictObject({
  job_id: ZJobId,
  reason_text: short(2000),
  reason_code: short(64).optional(),
  ...provenance,
});

export const ZJobChangesRequestedPayload = z.strictObject({
  job_id: ZJobId,
  changes_text: short(2000),
  ...provenance,
});

export const ZJobInputProvidedPayload = z.strictObject({
  job_id: ZJobId,
  /**
   * Sanitized: plain values are previews, sensitive ones are redacted with a vault pointer; a
   * time window also carries the structured window Office resolved from it (`when`).
   */
  inputs: z.record(short(64), z.union([short(500), z.number(), z.boolean(), ZRedactedValue, ZWhen])),
  ...provenance,
});

/** How an invitee answered a meeting invitation (iMIP REPLY: PARTSTAT; COUNTER: a proposed time). */
export const INVITE_ANSWERS = ["accepted", "declined", "tentative", "counter"] as const;

/**
 * An invitee's answer to the job's invitation arrived by mail (iMIP REPLY or COUNTER, RFC 6047)
 * and matched the event's UID and an invited attendee whose own address sent it. The ledger
 * keeps the attendee's name and redacted address, their words (scrubbed), a proposed time, and
 * the SHA-256 of the mail's Message-ID; never the address itself.
 */
export const ZJobReplyReceivedPayload = z.strictObject({
  job_id: ZJobId,
  event_uid: short(200).min(1),
  attendee: z.strictObject({
    name: z.string().min(1).max(120),
    email_redacted: short(200),
    email_hash: short(100).optional(),
  }),
  answer: z.enum(INVITE_ANSWERS),
  /** The invitee's COMMENT, scrubbed of addresses and numbers. */
  comment: short(300).optional(),
  /** A counter-proposal's time. */
  proposed: z.strictObject({ start: ZIsoTime, end: ZIsoTime, timezone: short(64) }).optional(),
  sequence: z.number().int().min(0).max(100_000),
  message_id_sha256: z.string().regex(/^sha256:[0-9a-f]{64}$/),
});

export const ZPolicyViolationPayload = z.strictObject({
  violated_policy_id: short(128),
  code: short(64),
  event_type: short(64),
  event_id: short(128),
  message_safe: short(500),
  mode: z.enum(["enforce", "warn"]).optional(),
});

export const ZToolCalledPayload = z.strictObject({
  tool_call_id: short(128).min(1),
  tool_name: short(128).min(1),
  tool_version: short(32).min(1),
  purpose: short(300).optional(),
  inputs: z.record(z.string(), z.unknown()),
  pii_policy: z.object({
    redactions_applied: z.array(short(64)).max(20),
    hashes_applied: z.array(short(64)).max(20),
    raw_pii_stored: z.literal(false),
  }),
  idempotency_key: short(300).min(1),
  attempt: z.number().int().min(1).max(100).optional(),
  retry_of_tool_call_id: short(128).optional(),
});

export const ZToolError = z.object({
  error_code: short(64),
  message_safe: short(500),
  retryable: z.boolean(),
  suggested_wait_seconds: z.number().nonnegative().optional(),
});

export const ZToolResultPayload = z.strictObject({
  tool_call_id: short(128).min(1),
  tool_name: short(128).min(1),
  status: z.enum(["success", "error"]),
  latency_ms: z.number().nonnegative(),
  output: z.record(z.string(), z.unknown()).optional(),
  artifacts: z.array(ZArtifactRef).max(20).optional(),
  error: ZToolError.optional(),
  safety: z.object({ pii_leak_detected: z.boolean(), redaction_summary: z.array(short(200)).max(10) }).optional(),
  attempt: z.number().int().min(1).max(100).optional(),
  retryable: z.boolean().optional(),
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
