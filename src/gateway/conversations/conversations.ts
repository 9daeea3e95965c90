import { LIMITS } from "../../../contracts/facts.js";
import type { z } from "zod";
import type { ZCreateConversationRequest, ZReadMarkerRequest } from "../../../contracts/gateway.js";
import { parseCursor } from "../../../contracts/primitives.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import type { ConversationRow, JobRow } from "../projections/state.js";
import { scrubText } from "../pii.js";
import { checkMentions } from "./mentions.js";
import { liveMessage } from "./messages.js";
import { threadRootMessage } from "./threads.js";

/** A conversation the person takes part in; any other (or another tenant's) reads as not found. */
export function memberConversation(core: Core, p: Principal, conversationId: string): ConversationRow {
  const conv = core.tenant(p.tenantId).conversations.get(conversationId);
  if (!conv?.participants.has(p.entityId)) throw notFound("Conversation");
  return conv;
}

/** A job the person may see: its conversation has them as a participant. */
export function memberJob(core: Core, p: Principal, jobId: string): JobRow {
  const state = core.tenant(p.tenantId);
  const job = state.jobs.get(jobId);
  if (!job || !state.conversations.get(job.conversation_id)?.participants.has(p.entityId)) throw notFound("Job");
  return job;
}

export async function createConversation(
  core: Core,
  p: Principal,
  body: z.infer<typeof ZCreateConversationRequest>,
  idem?: IdemScope,
): Promise<StoredResponse> {
  const state = core.tenant(p.tenantId);
  const me = core.me(p);
  const ids = [p.entityId, ...body.participants.map((x) => x.entity_id).filter((id) => id !== p.entityId)];
  for (const id of ids)
    if (!state.entities.has(id)) throw new AppError("NOT_FOUND", `Entity ${id} not found`, { field: "participants" });
  const unique = [...new Set(ids)];
  const others = unique.filter((id) => id !== p.entityId);
  const isPublic = body.visibility === "public";
  // A channel is found by its name in Browse channels: it has one, and it is a group however few are in it.
  if (isPublic && body.title === undefined)
    throw new AppError("VALIDATION_ERROR", "A public channel needs a name", { field: "title" });
  // A group's name is typed like a message: an email or phone in it goes to the vault and the
  // ledger keeps only the redacted form (the title is shown as stored).
  const typed = body.title === undefined ? undefined : scrubText(p.tenantId, body.title, core.office.vault).text;
  const title = typed ?? (others.map((id) => state.entities.get(id)!.display_name).join(", ") || me.display_name);
  const conversationId = core.ids("cnv");
  const ev = core.event(
    p.tenantId,
    "conversation.created",
    conversationId,
    { entity_id: p.entityId, actor_type: "human" },
    {
      conversation_id: conversationId,
      title: title.slice(0, 120),
      participants: unique.map((entity_id) => ({ entity_id })),
      kind: unique.length === 2 && !body.title && !isPublic ? "direct" : "group",
      ...(isPublic ? { visibility: "public" as const } : {}),
    },
    { ...(body.trace_id ? { trace_id: body.trace_id } : {}) },
  );
  return core.commit(p.tenantId, [ev], {
    idem,
    body: (res) => ({
      accepted: true,
      conversation_id: conversationId,
      created_event_ids: res.accepted_event_ids,
      cursor: res.cursor,
    }),
  });
}

/** A text message: PII to the vault, one `message.sent`, 202; Office answers on the stream. */
export async function postText(
  core: Core,
  p: Principal,
  conversationId: string,
  body: {
    body_text: string;
    trace_id?: string | undefined;
    client_message_id?: string | undefined;
    mentions?: Array<{ entity_id: string }> | undefined;
    reply_to_message_id?: string | undefined;
    thread_root_message_id?: string | undefined;
  },
  idem?: IdemScope,
  /** A scheduled send: its message and event ids are fixed in advance (so it is written once), and `extra` marks it sent in the same commit. */
  scheduled?: { messageId: string; eventId: string; extra: () => void },
): Promise<StoredResponse> {
  const conv = memberConversation(core, p, conversationId);
  const mentions = checkMentions(core, p, conv, body.mentions);
  // Mentioned agents who are not here cannot answer yet: the sender is told which (the UI offers to add them).
  const absent = mentions.filter((m) => !conv.participants.has(m.entity_id)).map((m) => m.entity_id);
  // Only whitespace would be an empty bubble in everyone's chat (the composer never sends one).
  if (body.body_text.trim() === "")
    throw new AppError("VALIDATION_ERROR", "The message is empty", { field: "body_text" });
  if (body.reply_to_message_id !== undefined)
    liveMessage(core, p, conversationId, body.reply_to_message_id, "reply_to_message_id");
  const threadRoot = body.thread_root_message_id;
  if (threadRoot !== undefined) threadRootMessage(core, p, conversationId, threadRoot);
  const state = core.tenant(p.tenantId);
  const { text, refs } = scrubText(p.tenantId, body.body_text, core.office.vault);
  const messageId = scheduled?.messageId ?? core.ids("msg");
  const traceId = body.trace_id ?? core.ids("trc");
  const ev = core.event(
    p.tenantId,
    "message.sent",
    conversationId,
    { entity_id: p.entityId, actor_type: "human" },
    {
      message_id: messageId,
      kind: "text",
      body_text: text.slice(0, LIMITS.messageChars),
      ...(refs.length ? { pii_refs: refs } : {}),
      ...(mentions.length ? { mentions } : {}),
      ...(body.reply_to_message_id !== undefined ? { reply_to_message_id: body.reply_to_message_id } : {}),
      ...(threadRoot !== undefined ? { thread_root_message_id: threadRoot } : {}),
      ...(body.client_message_id ? { client_message_id: body.client_message_id } : {}),
    },
    { trace_id: traceId },
  );
  if (scheduled) ev.event_id = scheduled.eventId;
  // Only conversations with an agent coworker have anyone for Office to speak for. The work
  // enters Office's durable inbox in the same commit as the message: accepted means answered.
  // A thread is people talking beside the conversation: agents answer in the conversation only.
  const forOffice =
    threadRoot === undefined &&
    conv.participant_entity_ids.some((id) => state.entities.get(id)?.actor_type === "agent");
  return core.commit(p.tenantId, [ev], {
    idem,
    ...(forOffice || scheduled
      ? {
          extra: () => {
            scheduled?.extra();
            if (!forOffice) return;
            core.office.accept({
              kind: "message",
              request: {
                tenant_id: p.tenantId,
                trace_id: traceId,
                conversation_id: conversationId,
                actor_entity_id: p.entityId,
                kind: "text",
                // Office needs the real words (an attendee's address, say); the inbox keeps them
                // sealed with the vault key, and Office vaults every sensitive value itself before
                // anything it writes reaches the ledger.
                body_text: body.body_text,
                message_event_id: ev.event_id,
                ...(mentions.length ? { mentions: mentions.map((m) => m.entity_id) } : {}),
                // A reply to an agent's message is for that agent (group-gate reads it).
                ...(body.reply_to_message_id !== undefined ? { reply_to_message_id: body.reply_to_message_id } : {}),
              },
            });
          },
        }
      : {}),
    body: (r) => ({
      accepted: true,
      conversation_id: conversationId,
      client_action: "message.send",
      message_id: messageId,
      ...(body.client_message_id ? { client_message_id: body.client_message_id } : {}),
      ...(absent.length ? { not_in_conversation: absent } : {}),
      created_event_ids: r.accepted_event_ids,
      cursor: r.cursor,
    }),
  });
}

/** A read marker: everything up to `cursor` in this conversation is read (drives unread counts), or only delivered to a device. */
export async function markRead(
  core: Core,
  p: Principal,
  conversationId: string,
  body: z.infer<typeof ZReadMarkerRequest>,
  idem?: IdemScope,
): Promise<StoredResponse> {
  memberConversation(core, p, conversationId);
  const seq = parseCursor(body.cursor)!;
  // A cursor past this tenant's head is not one of its cursors (another tenant's, or invented).
  if (seq > core.tenant(p.tenantId).head) throw notFound("Cursor");
  const ev = core.event(
    p.tenantId,
    "message.delivered",
    conversationId,
    { entity_id: p.entityId, actor_type: "human" },
    {
      up_to_seq: seq,
      ...(body.mark === "delivered" ? { mark: "delivered" as const } : {}),
    },
  );
  return core.commit(p.tenantId, [ev], {
    idem,
    body: (r) => ({
      accepted: true,
      conversation_id: conversationId,
      created_event_ids: r.accepted_event_ids,
      cursor: r.cursor,
    }),
  });
}
