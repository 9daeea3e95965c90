import type { TChannelList } from "../../../contracts/gateway-responses.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";

/**
 * Public channels: groups anyone of the workspace may find (Browse channels) and join
 * themself, as a `conversation.joined` the policy pack checks (policy.public_channels). Leaving
 * is the same as leaving any group. Reading stays membership: the list names a channel, counts
 * its members and says whether I am in it, and nothing of its messages reaches anyone who has
 * not joined.
 */

/** The workspace's public channels, by name, each with its member count and whether I am in it. */
export function listChannels(core: Core, p: Principal): TChannelList {
  const state = core.tenant(p.tenantId);
  const channels: TChannelList["channels"] = [];
  for (const conv of state.conversations.values()) {
    if (conv.visibility !== "public") continue;
    channels.push({
      conversation_id: conv.conversation_id,
      title: conv.title,
      member_count: conv.participant_entity_ids.length,
      joined: conv.participants.has(p.entityId),
      created_at: conv.created_at,
      ...(conv.last_item_ts ? { last_item_ts: conv.last_item_ts } : {}),
    });
  }
  channels.sort((a, b) => a.title.localeCompare(b.title) || a.conversation_id.localeCompare(b.conversation_id));
  return { tenant_id: p.tenantId, channels };
}

/** Join a public channel: one `conversation.joined`, 202; I get its row and its history on the stream. */
export async function joinChannel(
  core: Core,
  p: Principal,
  conversationId: string,
  idem: IdemScope,
): Promise<StoredResponse> {
  const conv = core.tenant(p.tenantId).conversations.get(conversationId);
  // A private conversation answers as one that does not exist: its id tells an outsider nothing.
  if (conv?.visibility !== "public") throw notFound("Channel");
  if (conv.participants.has(p.entityId))
    throw new AppError("CONFLICT", "You are already in this channel", { conversation_id: conversationId });
  const ev = core.event(
    p.tenantId,
    "conversation.joined",
    conversationId,
    { entity_id: p.entityId, actor_type: "human" },
    { entity_id: p.entityId },
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
