import type { z } from "zod";
import type { ZAddMemberRequest, ZRenameConversationRequest } from "../../../contracts/gateway.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { scrubText } from "../pii.js";
import type { ConversationRow } from "../projections/state.js";
import { memberConversation } from "./conversations.js";

/**
 * Who is in a conversation and what it is called, as ledger events the policy pack checks
 * (policy.membership_changes): any member adds a person or agent of the workspace and renames;
 * anyone leaves; removing someone else is for whoever started the conversation, or an admin.
 * The checks here say the same thing in plain words before anything is appended.
 */

/** How far back an agent that joins looks for the message that mentioned it (the one it then answers). */
const MENTION_LOOKBACK = 20;

const accepted = (conversationId: string) => (r: { accepted_event_ids: string[]; cursor: string }) => ({
  accepted: true,
  conversation_id: conversationId,
  created_event_ids: r.accepted_event_ids,
  cursor: r.cursor,
});

/** True when the person may remove others from this conversation. */
function mayRemoveOthers(core: Core, p: Principal, conv: ConversationRow): boolean {
  return conv.created_by === p.entityId || core.me(p).roles.includes("admin");
}

export async function addMember(
  core: Core,
  p: Principal,
  conversationId: string,
  body: z.infer<typeof ZAddMemberRequest>,
  idem: IdemScope,
): Promise<StoredResponse> {
  const conv = memberConversation(core, p, conversationId);
  const state = core.tenant(p.tenantId);
  const who = state.entities.get(body.entity_id);
  if (!who) throw new AppError("NOT_FOUND", "Nobody with that id in this workspace", { field: "entity_id" });
  if (conv.participants.has(body.entity_id))
    throw new AppError("CONFLICT", `${who.display_name} is already in this conversation`, { field: "entity_id" });
  const ev = core.event(
    p.tenantId,
    "conversation.member_added",
    conversationId,
    { entity_id: p.entityId, actor_type: "human" },
    { entity_id: body.entity_id },
  );
  // An agent that joins answers the message that asked for it ("@Office …" before it was here),
  // accepted for Office in the same commit as the join.
  const asked = who.actor_type === "agent" ? mentioningMessage(core, p, conv, body.entity_id) : undefined;
  return core.commit(p.tenantId, [ev], {
    idem,
    ...(asked
      ? {
          extra: () =>
            core.office.accept({
              kind: "message",
              request: {
                tenant_id: p.tenantId,
                trace_id: core.ids("trc"),
                conversation_id: conversationId,
                actor_entity_id: asked.sender,
                kind: "text",
                body_text: asked.text,
                message_event_id: asked.event_id,
                mentions: [body.entity_id],
              },
            }),
        }
      : {}),
    body: accepted(conversationId),
  });
}

/** The latest person's message here that mentions `agentId`, among the last few items. */
function mentioningMessage(
  core: Core,
  p: Principal,
  conv: ConversationRow,
  agentId: string,
): { event_id: string; sender: string; text: string } | undefined {
  const items = core.tenant(p.tenantId).timeline.get(conv.conversation_id) ?? [];
  for (let i = items.length - 1; i >= Math.max(0, items.length - MENTION_LOOKBACK); i--) {
    const it = items[i]!;
    const m = it.message as { kind: string; body_text?: string; mentions?: Array<{ entity_id: string }> };
    if (it.sender.actor_type !== "human" || m.kind !== "text" || !m.body_text) continue;
    if (m.mentions?.some((x) => x.entity_id === agentId))
      return { event_id: it.event_id, sender: it.sender.entity_id, text: m.body_text };
  }
  return undefined;
}

/** Leave (the entity is the caller) or remove someone else. */
export async function removeMember(
  core: Core,
  p: Principal,
  conversationId: string,
  entityId: string,
  idem: IdemScope,
): Promise<StoredResponse> {
  const conv = memberConversation(core, p, conversationId);
  if (!conv.participants.has(entityId)) throw notFound("Member");
  const leaving = entityId === p.entityId;
  if (!leaving) {
    if (conv.kind === "direct")
      throw new AppError("CONFLICT", "Nobody is removed from a direct chat; leave it instead", { entity_id: entityId });
    if (!mayRemoveOthers(core, p, conv))
      throw new AppError("FORBIDDEN", "Only whoever started this conversation, or an admin, may remove others", {
        entity_id: entityId,
      });
  }
  const ev = core.event(
    p.tenantId,
    "conversation.member_removed",
    conversationId,
    { entity_id: p.entityId, actor_type: "human" },
    { entity_id: entityId, reason: leaving ? "left" : "removed" },
  );
  return core.commit(p.tenantId, [ev], { idem, body: accepted(conversationId) });
}

export async function renameConversation(
  core: Core,
  p: Principal,
  conversationId: string,
  body: z.infer<typeof ZRenameConversationRequest>,
  idem: IdemScope,
): Promise<StoredResponse> {
  const conv = memberConversation(core, p, conversationId);
  if (conv.kind === "direct")
    throw new AppError("CONFLICT", "A direct chat is named after the other person; add someone to make it a group", {
      field: "title",
    });
  // Typed like a message: an address or number in a name goes to the vault, the ledger keeps its redaction.
  const title = scrubText(p.tenantId, body.title, core.office.vault).text.slice(0, 120);
  const ev = core.event(
    p.tenantId,
    "conversation.renamed",
    conversationId,
    { entity_id: p.entityId, actor_type: "human" },
    { title },
  );
  return core.commit(p.tenantId, [ev], { idem, body: accepted(conversationId) });
}
