import type { z } from "zod";
import type { ZCreateConversationRequest, ZReadMarkerRequest } from "../../../contracts/gateway.js";
import { parseCursor } from "../../../contracts/primitives.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import type { ConversationRow, JobRow } from "../projections/state.js";
import { scrubText } from "../pii.js";

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
