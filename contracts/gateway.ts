import { LIMITS } from "./facts.js";
import { EMOJI_MAX_CHARS, isSingleEmoji } from "./emoji.js";
import { z } from "zod";
import { ZArtifactRef, ZCardAction, ZCardButton, ZJobCard } from "./cards.js";
import { ZMention } from "./events.js";
import { ZActionSummary, ZChoice, ZCitation, ZRenderDoc, ZSurface } from "./llm.js";
import {
  ZActorType,
  ZButtonId,
  ZCardId,
  ZConversationId,
  ZCursor,
  ZEntityId,
  ZIsoTime,
  ZJobId,
  ZJobState,
  ZPriority,
  ZTenantId,
  ZTraceId,
} from "./primitives.js";
import { hasContactDetails } from "./contact-details.js";

// ---- commands -------------------------------------------------------------------------------

/**
 * Names of workspaces, people and agents are plain data that every member sees and that the
 * ledger keeps forever, so they may not carry an email address or phone number (those belong in
 * a contact, where they go to the vault).
 */
const ZName = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // Length first: a name already too long is not searched at all.
    .refine((v) => v.length > max || !hasContactDetails(v), {
      message: "must not contain an email address or phone number",
    });

export const ZCreateWorkspaceRequest = z.strictObject({
  name: ZName(120),
  owner: z.strictObject({ display_name: ZName(120) }),
});
export const ZCreateWorkspaceResponse = z.object({
  tenant_id: ZTenantId,
  owner_entity_id: ZEntityId,
  token: z.string(),
});

export const ZCreateInviteRequest = z.strictObject({
  display_name: ZName(120).optional(),
  roles: z
    .array(z.enum(["job_approver", "admin", "member"]))
    .max(5)
    .optional(),
});
export const ZCreateInviteResponse = z.object({ invite_token: z.string(), url: z.string() });
export const ZAcceptInviteRequest = z.strictObject({ display_name: ZName(120) });
export const ZAcceptInviteResponse = z.object({ entity_id: ZEntityId, token: z.string(), tenant_id: ZTenantId });

export const ZCreateAgentRequest = z.strictObject({
  display_name: ZName(120),
  role: ZName(64),
  capabilities: z.array(ZName(64)).max(30).default([]),
  allowed_tools: z.array(z.string().max(128)).max(50).default([]),
});
export const ZCreateAgentResponse = z.object({ entity_id: ZEntityId });

/** An admin's choice of what an agent may do with tools: auto, approve (a person approves each call) or off. */
export const ZSetAgentToolsRequest = z.strictObject({
  tools: z
    .array(z.strictObject({ name: z.string().min(1).max(128), mode: z.enum(["auto", "approve", "off"]) }))
    .min(1)
    .max(200),
});

export const ZSessionRequest = z.strictObject({ token: z.string().min(1).max(512) });

export const ZCreateConversationRequest = z.strictObject({
  tenant_id: ZTenantId.optional(),
  trace_id: ZTraceId.optional(),
  title: z.string().trim().min(1).max(120).optional(),
  participants: z
    .array(z.strictObject({ entity_id: ZEntityId }))
    .min(1)
    .max(500),
  /** `public`: a channel anyone of the workspace may find and join (needs a title); `private` (the default): invite-only. */
  visibility: z.enum(["public", "private"]).optional(),
});
export const ZCreateConversationResponse = z.object({
  conversation_id: ZConversationId,
  created_event_ids: z.array(z.string()),
  cursor: ZCursor,
});

/** `POST /v1/conversations/:id/members`: add a person or agent of the workspace. */
export const ZAddMemberRequest = z.strictObject({ entity_id: ZEntityId });
/** `PUT /v1/conversations/:id/title`: a group's new name. */
export const ZRenameConversationRequest = z.strictObject({ title: z.string().trim().min(1).max(LIMITS.titleChars) });

const ZInputValue = z.union([z.string().max(5000), z.number(), z.boolean()]);

export const ZPostMessageRequest = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("text"),
    tenant_id: ZTenantId.optional(),
    trace_id: ZTraceId.optional(),
    actor_entity_id: ZEntityId.optional(),
    body_text: z.string().min(1).max(LIMITS.messageChars),
    client_message_id: z.string().max(128).optional(),
    /** Who the text's `@Name`s mean: members of the conversation, or agents of the workspace. */
    mentions: z.array(ZMention).max(50).optional(),
    /** The message this one answers: one of the same conversation, not deleted. */
    reply_to_message_id: z.string().min(1).max(128).optional(),
    /** A reply in this message's thread (one of the same conversation, not deleted, not itself a thread reply): shown in the thread, not the timeline. */
    thread_root_message_id: z.string().min(1).max(128).optional(),
  }),
  z.strictObject({
    kind: z.literal("card_action"),
    tenant_id: ZTenantId.optional(),
    trace_id: ZTraceId.optional(),
    actor_entity_id: ZEntityId.optional(),
    job_id: ZJobId,
    card_id: ZCardId,
    button_id: ZButtonId,
    action: ZCardAction,
    input: z.record(z.string().max(64), ZInputValue).optional(),
  }),
]);

export const ZJobActionSubmit = z.strictObject({
  tenant_id: ZTenantId.optional(),
  trace_id: ZTraceId.optional(),
  conversation_id: ZConversationId.optional(),
  actor_entity_id: ZEntityId.optional(),
  actor_type: z.literal("human").optional(),
  card_id: ZCardId,
  button_id: ZButtonId,
  action: ZCardAction,
  input: z.record(z.string().max(64), ZInputValue).optional(),
});

/** `PATCH /v1/conversations/:id/messages/:message_id`: the author's new text. */
export const ZEditMessageRequest = z.strictObject({ body_text: z.string().min(1).max(LIMITS.messageChars) });

/** `POST /v1/conversations/:id/messages/:message_id/reactions`: put a reaction on (or take it off). */
export const ZReactRequest = z.strictObject({
  emoji: z.string().min(1).max(EMOJI_MAX_CHARS).refine(isSingleEmoji, { message: "must be a single emoji" }),
  on: z.boolean(),
});

/** `POST /v1/conversations/:id/messages/:message_id/forward`: a copy of the message into another of my conversations. */
export const ZForwardRequest = z.strictObject({ to_conversation_id: ZConversationId });

/** `POST /v1/conversations/:id/messages/:message_id/pin`: pin the message to its conversation (or unpin it). */
export const ZPinRequest = z.strictObject({ on: z.boolean() });

/** `POST /v1/conversations/:id/messages/:message_id/previews/remove`: the link whose preview the author takes off. */
export const ZRemovePreviewRequest = z.strictObject({ url: z.string().min(1).max(2000) });

/** `POST /v1/conversations/:id/threads/:message_id/follow`: follow the message's thread (or stop). */
export const ZFollowThreadRequest = z.strictObject({ on: z.boolean() });

/** `POST /v1/conversations/:id/threads/:message_id/read`: the thread's replies are read up to `cursor`. */
export const ZThreadReadRequest = z.strictObject({ cursor: ZCursor });

export const ZReadMarkerRequest = z.strictObject({
  tenant_id: ZTenantId.optional(),
  cursor: ZCursor,
  /** "delivered": it reached this device but is not read yet (the sender's ✓✓); default "read". */
  mark: z.enum(["delivered", "read"]).optional(),
});

/** `POST /v1/conversations/:id/typing`: I am typing in it now (an ephemeral signal, no ledger event). */
export const ZTypingRequest = z.strictObject({ tenant_id: ZTenantId.optional() });

/** Every accepted write answers 202 with this; the rest of the story arrives on the stream. */
export const ZAcceptedResponse = z.object({
  accepted: z.literal(true),
  conversation_id: ZConversationId.optional(),
  job_id: ZJobId.optional(),
  client_action: z.string().optional(),
  created_event_ids: z.array(z.string()),
  cursor: ZCursor,
  /**
   * A message only: agents it mentions who are not in the conversation. They do not answer it
   * until someone adds them; an agent that is added then answers the latest message that mentioned it.
   */
  not_in_conversation: z.array(ZEntityId).optional(),
});

// ---- reads (projections) ---------------------------------------------------------------------

export const ZSender = z.object({ entity_id: ZEntityId, display_name: z.string(), actor_type: ZActorType });

export const ZTimelineItem = z.object({
  kind: z.literal("message"),
  ts: ZIsoTime,
  event_id: z.string(),
  cursor: ZCursor,
  sender: ZSender,
  job_id: ZJobId.optional(),
  /** When the author last edited it (the text is the latest). */
  edited_at: ZIsoTime.optional(),
  /** Withdrawn: the message keeps its place, its text is gone. */
  deleted: z.literal(true).optional(),
  /** Reactions, each emoji once with who put it on (in order). */
  reactions: z
    .array(z.object({ emoji: z.string(), entity_ids: z.array(ZEntityId), names: z.array(z.string()) }))
    .optional(),
  /** A forwarded copy: who wrote the message it copies (its text is this item's own). */
  forwarded: z.object({ author_name: z.string() }).optional(),
  /** Pinned to the conversation: by whom and when. */
  pinned: z.object({ by_entity_id: ZEntityId, by_name: z.string(), at: ZIsoTime }).optional(),
  /** Previews of the message's links, fetched by the server (plain text; none once the author takes one off). */
  previews: z
    .array(
      z.object({
        url: z.string(),
        title: z.string().optional(),
        description: z.string().optional(),
        site_name: z.string().optional(),
      }),
    )
    .optional(),
  /** A thread root: how many replies its thread holds (not deleted) and when the last was sent. */
  thread: z.object({ reply_count: z.number().int().min(0), last_reply_ts: ZIsoTime }).optional(),
  /** The message this one answers: its sender and a short quote (none once that one is deleted). */
  reply_to: z
    .object({
      message_id: z.string(),
      sender_name: z.string().optional(),
      snippet: z.string().optional(),
      deleted: z.literal(true).optional(),
    })
    .optional(),
  message: z.looseObject({
    message_id: z.string(),
    kind: z.enum(["text", "card", "system", "artifact"]),
    body_text: z.string().optional(),
    card: ZJobCard.optional(),
    artifact: ZArtifactRef.optional(),
    action_summary: ZActionSummary.optional(),
    surfaces: z.array(ZSurface).optional(),
    render: ZRenderDoc.optional(),
    citations: z.array(ZCitation).optional(),
    choices: z.array(ZChoice).optional(),
  }),
});

export const ZPresenceState = z.enum(["available", "working", "waiting_on_you", "offline"]);
export const ZPresence = z.object({
  tenant_id: ZTenantId,
  entity_id: ZEntityId,
  state: ZPresenceState,
  job_id: ZJobId.optional(),
  job_title: z.string().optional(),
  since: ZIsoTime,
  last_seen_at: ZIsoTime.optional(),
  detail: z.string().optional(),
  /**
   * People only, from their open sessions: online (a page of theirs is connected and they were
   * active in the last 10 minutes), away (connected, idle longer) or offline (see last_seen_at).
   */
  connection: z.enum(["online", "away", "offline"]).optional(),
});

export const ZConversationSummary = z.object({
  conversation_id: ZConversationId,
  title: z.string(),
  /** A direct chat (two people, named after the other) or a group; a direct chat someone joins becomes a group. */
  kind: z.enum(["direct", "group"]).optional(),
  /** Who started it: with admins, the one who may remove others. */
  created_by: ZEntityId.optional(),
  /** `public`: a channel anyone of the workspace may find and join; absent: private (invite-only). */
  visibility: z.enum(["public"]).optional(),
  participant_entity_ids: z.array(ZEntityId),
  last_item_ts: ZIsoTime.optional(),
  last_preview: z
    .object({
      kind: z.string(),
      text: z.string().optional(),
      job_id: ZJobId.optional(),
      card_type: z.string().optional(),
    })
    .optional(),
  unread_count: z.number().int().nonnegative(),
  agent_presence: z.array(ZPresence.omit({ tenant_id: true })).optional(),
  active_job: z.object({ job_id: ZJobId, title: z.string(), state: ZJobState }).optional(),
  /** The reader muted it: nothing in it notifies them (their own setting, kept by the gateway). */
  muted: z.boolean().optional(),
  /**
   * How far each member's devices got (delivered) and how far they read; `read_up_to` is absent
   * for a member who turned read receipts off.
   */
  receipts: z
    .array(z.object({ entity_id: ZEntityId, delivered_up_to: ZCursor, read_up_to: ZCursor.optional() }))
    .optional(),
});

export const ZJobTimelineItem = z.looseObject({
  kind: z.enum(["state", "approval", "tool", "card", "message", "artifact"]),
  ts: ZIsoTime,
  actor_name: z.string(),
  event_id: z.string(),
});

export const ZJobDrawerResponse = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  job_id: ZJobId,
  title: z.string(),
  goal: z.string(),
  state: ZJobState,
  owner: z.object({ entity_id: ZEntityId, display_name: z.string(), actor_type: z.enum(["human", "agent"]) }),
  created_at: ZIsoTime,
  updated_at: ZIsoTime,
  constraints: z.array(z.string()).optional(),
  due_at: ZIsoTime.optional(),
  priority: ZPriority.optional(),
  parent_job_id: ZJobId.optional(),
  available_actions: z.array(ZCardButton),
  /** The card whose buttons `available_actions` are (the job's latest card); every other card of the job is an earlier step. */
  actions_card_id: ZCardId.optional(),
  /** Proposed, approved, in progress or waiting for input: the job can still change hands. */
  open: z.boolean().optional(),
  /** A finished job's outcome, as its Finished card recorded it (for a booking: the booked time and the room). */
  outcome: z
    .object({ result: z.enum(["completed", "failed", "cancelled", "rejected"]), summary: z.string() })
    .optional(),
  timeline: z.array(ZJobTimelineItem),
  artifacts: z.array(ZArtifactRef),
  raw_events: z.array(z.record(z.string(), z.unknown())).optional(),
  cursor: ZCursor,
  /** Office's LLM packets for this job (redacted) and what validation did with each model answer. */
  llm: z
    .object({
      packets: z.array(z.record(z.string(), z.unknown())),
      proposals: z.array(
        z.object({
          packet_id: z.string(),
          turn: z.number(),
          created_at: z.string(),
          model: z.string().nullable(),
          outcome: z.string().nullable(),
          proposed: z.array(z.string()),
          dropped: z.array(z.unknown()),
        }),
      ),
    })
    .optional(),
});

export type TCreateWorkspaceRequest = z.infer<typeof ZCreateWorkspaceRequest>;
export type TPostMessageRequest = z.infer<typeof ZPostMessageRequest>;
export type TJobActionSubmit = z.infer<typeof ZJobActionSubmit>;
export type TAcceptedResponse = z.infer<typeof ZAcceptedResponse>;
export type TTimelineItem = z.infer<typeof ZTimelineItem>;
export type TPresence = z.infer<typeof ZPresence>;
export type TPresenceState = z.infer<typeof ZPresenceState>;
export type TConversationSummary = z.infer<typeof ZConversationSummary>;
export type TJobDrawerResponse = z.infer<typeof ZJobDrawerResponse>;
export type TJobTimelineItem = z.infer<typeof ZJobTimelineItem>;

// ---- contacts (additions) ---------------------------------------------------------------------

/** `POST /v1/contacts` and `PATCH /v1/contacts/:id`: emails and phones go to the vault, never the ledger. */
export const ZUpsertContactRequest = z.strictObject({
  display_name: ZName(120),
  email: z.string().trim().max(254).optional(),
  phone: z.string().trim().max(40).optional(),
  company: ZName(120).optional(),
  kind: z.enum(["customer", "vendor", "partner", "other"]).optional(),
  // Emails and phones have their own fields (they go to the vault); notes stay plain data.
  notes: z
    .string()
    .max(1000)
    .refine((v) => v.length > 1000 || !hasContactDetails(v), {
      message: "must not contain an email address or phone number (use the email and phone fields)",
    })
    .optional(),
});
export const ZPatchContactRequest = ZUpsertContactRequest.partial();
/** `PUT /v1/me/email`: your own address (null removes it); it goes to the vault, the ledger keeps its redaction. */
export const ZSetMyEmailRequest = z.strictObject({ email: z.string().trim().min(3).max(254).nullable() });

/** `POST /v1/contacts/import`: CSV text with a header row (name|display_name, email, phone, company, kind, notes). */
export const ZImportContactsRequest = z.strictObject({ csv: z.string().min(1).max(1_000_000) });
export type TUpsertContactRequest = z.infer<typeof ZUpsertContactRequest>;
