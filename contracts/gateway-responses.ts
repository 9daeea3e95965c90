import { z } from "zod";
import { ZConversationSummary, ZPresence, ZTimelineItem } from "./gateway.js";
import {
  ZActorType,
  ZConversationId,
  ZCursor,
  ZEntityId,
  ZIsoTime,
  ZJobId,
  ZJobState,
  ZTenantId,
} from "./primitives.js";

/**
 * What the Messenger's read routes answer, for the OpenAPI document and for clients. The
 * projections build these shapes; test/http/openapi.test.ts checks live answers against them.
 */

export const ZOk = z.object({ ok: z.literal(true) });

/** `GET /v1/session` and `POST /v1/session`: who the token stands for. */
export const ZSessionView = z.object({
  tenant_id: ZTenantId,
  entity_id: ZEntityId,
  display_name: z.string(),
  actor_type: ZActorType,
  roles: z.array(z.string()),
  /** My own address, redacted (`d***@example.com`), or null. */
  email: z.string().nullable(),
  /** The language chosen in my profile (a BCP 47 tag); absent: the browser's. */
  locale: z.string().optional(),
  /** Whether the others see when I read their messages (default on). */
  read_receipts: z.boolean().optional(),
  /** Whether Start a call is offered: this server has a Jitsi Meet server configured (JITSI_BASE_URL). */
  calls: z.boolean().optional(),
});

/** `GET /v1/invites/:invite`. */
export const ZInviteView = z.object({
  tenant_id: ZTenantId,
  display_name: z.string().nullable(),
  roles: z.array(z.string()),
  expires_at: ZIsoTime,
});

const ZEntityItem = z.object({
  entity_id: ZEntityId,
  actor_type: ZActorType,
  display_name: z.string(),
  roles: z.array(z.string()),
  role: z.string().optional(),
  capabilities: z.array(z.string()).optional(),
  allowed_tools: z.array(z.string()).optional(),
  avatar_url: z.string().optional(),
  time_zone: z.string().optional(),
  locale: z.string().optional(),
  /** A custom status (shown while `status_until` is ahead, or always without it). */
  status_text: z.string().optional(),
  status_until: ZIsoTime.optional(),
  /** Do not disturb until then. */
  dnd_until: ZIsoTime.optional(),
  presence: ZPresence.optional(),
});

export const ZEntityList = z.object({ tenant_id: ZTenantId, items: z.array(ZEntityItem), cursor: ZCursor });
export const ZPresenceList = z.object({ tenant_id: ZTenantId, items: z.array(ZPresence), cursor: ZCursor });
export const ZConversationList = z.object({
  tenant_id: ZTenantId,
  items: z.array(ZConversationSummary),
  cursor: ZCursor,
});

export const ZConversationDetail = z.object({
  tenant_id: ZTenantId,
  conversation: ZConversationSummary,
  participants: z.array(
    z.object({
      entity_id: ZEntityId,
      display_name: z.string(),
      actor_type: ZActorType,
      /** Authority roles (admin, job_approver, …): the members panel shows them. */
      roles: z.array(z.string()).optional(),
      role: z.string().optional(),
      capabilities: z.array(z.string()).optional(),
      presence: ZPresence.optional(),
    }),
  ),
  cursor: ZCursor,
});

/** A page of a conversation: oldest first; `next_cursor` pages back (`?before=`), null at the start. */
export const ZTimelinePage = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  items: z.array(ZTimelineItem),
  /** The current head of every job with a card on this page. */
  jobs: z.array(z.looseObject({ job_id: ZJobId, title: z.string(), state: ZJobState })),
  next_cursor: ZCursor.nullable(),
  cursor: ZCursor,
});

/** One message, for a link to it (members of its conversation only). */
export const ZMessageView = z.object({ tenant_id: ZTenantId, conversation_id: ZConversationId, item: ZTimelineItem });

/** A public channel as anyone of the workspace sees it in Browse channels (never its messages). */
export const ZChannelSummary = z.object({
  conversation_id: ZConversationId,
  title: z.string(),
  member_count: z.number().int().min(0),
  /** The reader is a member. */
  joined: z.boolean(),
  created_at: ZIsoTime,
  last_item_ts: ZIsoTime.optional(),
});

/** `GET /v1/channels`: the workspace's public channels, by name. */
export const ZChannelList = z.object({ tenant_id: ZTenantId, channels: z.array(ZChannelSummary) });

/** One reader's place in a thread: whether they follow it, and how many replies they have not read (0 when not following). */
export const ZThreadMark = z.object({
  root_message_id: z.string(),
  following: z.boolean(),
  unread_count: z.number().int().min(0),
});

/** A thread: its root message (as the timeline shows it, perhaps deleted), its replies oldest first, and the reader's mark. */
export const ZThreadView = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  root: ZTimelineItem,
  replies: z.array(ZTimelineItem),
  mark: ZThreadMark,
  cursor: ZCursor,
});

/** The threads of a conversation the reader follows, with their unread counts. */
export const ZThreadMarks = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  threads: z.array(ZThreadMark),
  cursor: ZCursor,
});

/** A conversation's pinned messages, in the order they were pinned. */
export const ZPinnedMessages = z.object({
  tenant_id: ZTenantId,
  conversation_id: ZConversationId,
  items: z.array(ZTimelineItem),
  cursor: ZCursor,
});

const ZRevealed = z.object({
  redacted: z.string(),
  hash: z.string(),
  vault_ref: z.string().optional(),
  value: z.string().nullable(),
});
export const ZContactList = z.object({
  tenant_id: ZTenantId,
  items: z.array(
    z.looseObject({
      contact_id: z.string(),
      display_name: z.string(),
      company: z.string().optional(),
      emails: z.array(ZRevealed),
      phones: z.array(ZRevealed),
    }),
  ),
});

export const ZOutboxView = z.object({
  mail_configured: z.boolean(),
  messages: z.array(
    z.object({
      outbox_id: z.string(),
      tenant_id: ZTenantId,
      job_id: ZJobId,
      artifact_id: z.string().nullable(),
      to_redacted: z.string(),
      subject: z.string(),
      status: z.enum(["held", "queued", "sending", "sent", "failed"]),
      attempts: z.number().int(),
      next_attempt_at: z.string().nullable(),
      last_error: z.string().nullable(),
      last_response: z.string().nullable(),
      message_id: z.string().nullable(),
      sent_at: z.string().nullable(),
      created_at: z.string(),
      updated_at: z.string().nullable(),
    }),
  ),
});

/** GET /v1/admin/inbound-mail: refused mails of the organizer's mailbox, newest first (no address, no content). */
export const ZInboundRefusals = z.object({
  mailbox_configured: z.boolean(),
  refusals: z.array(
    z.object({
      key: z.string(),
      reason: z.string(),
      detail: z.string().nullable(),
      job_id: ZJobId.nullable(),
      received_at: z.string(),
    }),
  ),
});
export type TInboundRefusals = z.infer<typeof ZInboundRefusals>;
export type TChannelList = z.infer<typeof ZChannelList>;

const ZToolAnnotations = z.object({
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
const ZToolMode = z.enum(["auto", "approve", "off"]);

/** An agent's tools as an admin chooses them: built-in and MCP, each with its mode. */
export const ZAgentTools = z.object({
  agent_entity_id: z.string(),
  tools: z.array(
    z.object({
      name: z.string(),
      source: z.enum(["built-in", "mcp"]),
      server: z.string().optional(),
      title: z.string().optional(),
      description: z.string(),
      annotations: ZToolAnnotations,
      mode: ZToolMode,
      mode_set: z.boolean(),
      suggested_mode: ZToolMode,
      modes: z.array(ZToolMode),
      available: z.boolean(),
    }),
  ),
});

/** The MCP tools the conversation's agent may use, for the /run form (members of the conversation). */
export const ZConversationTools = z.object({
  agent_entity_id: z.string().nullable(),
  tools: z.array(
    z.object({
      name: z.string(),
      title: z.string().optional(),
      description: z.string(),
      mode: z.enum(["auto", "approve"]),
      input_schema: z.record(z.string(), z.unknown()),
    }),
  ),
});

/** The MCP servers (admins): state, why one is failing, and the tools each offers. */
export const ZMcpStatus = z.object({
  servers: z.array(
    z.object({
      name: z.string(),
      transport: z.enum(["stdio", "http"]),
      state: z.enum(["connecting", "connected", "failing", "stopped"]),
      error: z.string().optional(),
      since: z.string(),
      restarts: z.number().int(),
      tools: z.array(
        z.object({
          name: z.string(),
          server: z.string(),
          tool: z.string(),
          title: z.string().optional(),
          description: z.string(),
          inputSchema: z.record(z.string(), z.unknown()),
          annotations: z.object({
            readOnlyHint: z.boolean().optional(),
            destructiveHint: z.boolean().optional(),
            idempotentHint: z.boolean().optional(),
            openWorldHint: z.boolean().optional(),
          }),
        }),
      ),
    }),
  ),
});

/** Writes answer 201/202/200 with what they created; the exact fields depend on the route. */
export const ZWriteResult = z.looseObject({
  accepted: z.boolean().optional(),
  created_event_ids: z.array(z.string()).optional(),
  cursor: ZCursor.optional(),
});
