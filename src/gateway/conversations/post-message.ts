import { LIMITS } from "../../../contracts/facts.js";
import type { ZPostMessageRequest } from "../../../contracts/gateway.js";
import type { z } from "zod";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { scrubText } from "../pii.js";
import { memberConversation } from "./conversations.js";
import { checkMentions } from "./mentions.js";
import { liveMessage } from "./messages.js";
import { threadRootMessage } from "./threads.js";

/** The text form of POST /v1/conversations/:id/messages (a card click is `submitJobAction`). */
export type TextMessage = Extract<z.infer<typeof ZPostMessageRequest>, { kind: "text" }>;

/**
 * POST /v1/conversations/:id/messages with a text: the `[ref …]`/`[op …]` tokens are checked
 * before anything is stored (a bad one is a 422, no message, no model call), then `postText`.
 */
export function postMessage(
  core: Core,
  p: Principal,
  conversationId: string,
  body: TextMessage,
  idem: IdemScope,
): Promise<StoredResponse> {
  memberConversation(core, p, conversationId);
  core.office.checkMessage({
    tenant_id: p.tenantId,
    conversation_id: conversationId,
    actor_entity_id: p.entityId,
    body_text: body.body_text,
  });
  return postText(core, p, conversationId, body, idem);
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
