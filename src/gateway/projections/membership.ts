import type { TStoredEvent } from "../../../contracts/events.js";
import type { TTimelineItem } from "../../../contracts/gateway.js";
import { formatCursor } from "../../../contracts/primitives.js";
import { channelDelta, summarize } from "./conversations.js";
import { displayName, type ConversationRow, type Delta, type TenantState } from "./state.js";

/**
 * Who is in a conversation, and what it is called: `conversation.member_added`,
 * `conversation.joined` (someone joins a public channel themself), `conversation.member_removed`
 * and `conversation.renamed`; a public channel's row in Browse channels follows each. Each change replaces the row's
 * participant set instead of editing it, because every delta already queued (and the resume
 * log) holds the set that was true when it was made: a removed person still gets what was said
 * before they left, and nothing from the moment they are gone.
 */
export function applyMembership(state: TenantState, ev: TStoredEvent): Delta[] {
  if (
    ev.event_type !== "conversation.member_added" &&
    ev.event_type !== "conversation.joined" &&
    ev.event_type !== "conversation.member_removed" &&
    ev.event_type !== "conversation.renamed"
  )
    return [];
  const conv = state.conversations.get(ev.conversation_id);
  if (!conv) return [];
  const actor = displayName(state, ev.actor.entity_id);
  const before = conv.participants;
  conv.updated_at = ev.ts;
  conv.source_event_id = ev.event_id;
  const deltas: Delta[] = [];

  if (ev.event_type === "conversation.member_added" || ev.event_type === "conversation.joined") {
    const id = ev.payload.entity_id;
    if (before.has(id)) return [];
    conv.participant_entity_ids = [...conv.participant_entity_ids, id];
    conv.participants = new Set(conv.participant_entity_ids);
    if (conv.kind === "direct") {
      // A direct chat someone joins is a group, named after its members until someone renames it.
      conv.kind = "group";
      conv.title = conv.participant_entity_ids
        .map((x) => displayName(state, x))
        .join(", ")
        .slice(0, 120);
    }
    const line =
      ev.event_type === "conversation.joined" ? `${actor} joined` : `${actor} added ${displayName(state, id)}`;
    deltas.push(systemLine(state, conv, ev, line, conv.participants));
    // The newcomer gets the whole row (their list gains it); the others learn who is in it now.
    deltas.push({
      event: "conversation.update",
      data: { tenant_id: state.tenant_id, conversation: summarize(state, conv, id) },
      audience: new Set([id]),
    });
    deltas.push(update(state, conv, before));
    deltas.push(...channelDelta(state, conv));
    return deltas;
  }

  if (ev.event_type === "conversation.member_removed") {
    const id = ev.payload.entity_id;
    if (!before.has(id)) return [];
    conv.participant_entity_ids = conv.participant_entity_ids.filter((x) => x !== id);
    conv.participants = new Set(conv.participant_entity_ids);
    const line =
      ev.payload.reason === "left" ? `${displayName(state, id)} left` : `${actor} removed ${displayName(state, id)}`;
    // The line goes to whoever was there, the removed person included: it is the last thing they see.
    deltas.push(systemLine(state, conv, ev, line, before));
    deltas.push({
      event: "conversation.removed",
      data: { tenant_id: state.tenant_id, conversation_id: conv.conversation_id, reason: ev.payload.reason },
      audience: new Set([id]),
    });
    deltas.push(update(state, conv, conv.participants));
    deltas.push(...channelDelta(state, conv));
    return deltas;
  }

  conv.title = ev.payload.title;
  deltas.push(
    systemLine(state, conv, ev, `${actor} renamed the conversation to “${ev.payload.title}”`, conv.participants),
  );
  deltas.push(update(state, conv, conv.participants));
  deltas.push(...channelDelta(state, conv));
  return deltas;
}

function update(state: TenantState, conv: ConversationRow, audience: ReadonlySet<string>): Delta {
  return {
    event: "conversation.update",
    data: {
      tenant_id: state.tenant_id,
      conversation: {
        conversation_id: conv.conversation_id,
        title: conv.title,
        kind: conv.kind,
        participant_entity_ids: conv.participant_entity_ids,
      },
    },
    audience,
  };
}

/** A system line in the timeline, built from the membership event itself (its id is the line's id). */
function systemLine(
  state: TenantState,
  conv: ConversationRow,
  ev: TStoredEvent,
  text: string,
  audience: ReadonlySet<string>,
): Delta {
  const item: TTimelineItem = {
    kind: "message",
    ts: ev.ts,
    event_id: ev.event_id,
    cursor: formatCursor(ev.seq),
    sender: {
      entity_id: ev.actor.entity_id,
      display_name: displayName(state, ev.actor.entity_id),
      actor_type: ev.actor.actor_type,
    },
    message: { message_id: ev.event_id, kind: "system", body_text: text },
  };
  let list = state.timeline.get(conv.conversation_id);
  if (!list) state.timeline.set(conv.conversation_id, (list = []));
  list.push(item);
  conv.last_item_ts = ev.ts;
  conv.last_preview = { kind: "system", text };
  return {
    event: "timeline.append",
    data: { tenant_id: state.tenant_id, conversation_id: conv.conversation_id, item },
    audience,
  };
}
