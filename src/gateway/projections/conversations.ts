import type { TStoredEvent } from "../../../contracts/events.js";
import type { TConversationSummary } from "../../../contracts/gateway.js";
import type { ConversationRow, Delta, TenantState } from "./state.js";

const PREVIEW_MAX = 140;

/** projection_conversations: the conversation list, previews and read markers. */
export function applyConversations(state: TenantState, ev: TStoredEvent): Delta[] {
  if (ev.event_type === "conversation.created") {
    const p = ev.payload;
    const ids = [...new Set(p.participants.map((x) => x.entity_id))];
    const row: ConversationRow = {
      conversation_id: p.conversation_id,
      title: p.title,
      kind: p.kind ?? (ids.length === 2 ? "direct" : "group"),
      participant_entity_ids: ids,
      participants: new Set(ids),
      created_by: ev.actor.entity_id,
      created_at: ev.ts,
      ...(p.visibility === "public" ? { visibility: "public" as const } : {}),
      read_marks: new Map(),
      delivered_marks: new Map(),
      updated_at: ev.ts,
      source_event_id: ev.event_id,
    };
    state.conversations.set(row.conversation_id, row);
    return [
      {
        event: "conversation.update",
        data: { tenant_id: state.tenant_id, conversation: summarize(state, row, null) },
        audience: row.participants,
      },
      ...channelDelta(state, row),
    ];
  }
  const conv = state.conversations.get(ev.conversation_id);
  if (!conv) return [];
  // A thread reply changes nothing in the conversation's list row (no preview, no unread).
  if (ev.event_type === "message.sent" && ev.payload.thread_root_message_id === undefined) {
    const p = ev.payload;
    conv.last_item_ts = ev.ts;
    conv.last_preview = {
      kind: p.kind,
      ...(previewText(p) !== undefined ? { text: previewText(p) } : {}),
      ...(ev.job_id ? { job_id: ev.job_id } : {}),
      ...(p.card ? { card_type: p.card.card_type } : {}),
    };
    // Writing in a conversation means having read it.
    markRead(conv, ev.actor.entity_id, ev.seq);
    conv.updated_at = ev.ts;
    conv.source_event_id = ev.event_id;
    return [
      {
        event: "conversation.update",
        data: {
          tenant_id: state.tenant_id,
          conversation: {
            conversation_id: conv.conversation_id,
            last_item_ts: conv.last_item_ts,
            last_preview: conv.last_preview,
            receipts: receiptsOf(state, conv),
          },
        },
        audience: conv.participants,
        carries: [p.message_id],
      },
    ];
  }
  if (ev.event_type === "message.delivered") {
    const who = ev.actor.entity_id;
    const before = `${conv.delivered_marks.get(who) ?? 0}:${conv.read_marks.get(who) ?? 0}`;
    if (ev.payload.mark === "delivered") markDelivered(conv, who, ev.payload.up_to_seq);
    else markRead(conv, who, ev.payload.up_to_seq);
    const deltas: Delta[] = [];
    // Unread counts are per person: only the reader's own clients learn theirs.
    if (ev.payload.mark !== "delivered") {
      deltas.push({
        event: "conversation.update",
        data: {
          tenant_id: state.tenant_id,
          conversation: { conversation_id: conv.conversation_id, unread_count: unreadCount(state, conv, who) },
        },
        audience: new Set([who]),
      });
    }
    // How far each member got is the conversation's to know (the senders' ticks).
    if (before !== `${conv.delivered_marks.get(who) ?? 0}:${conv.read_marks.get(who) ?? 0}`)
      deltas.push(receiptsDelta(state, conv));
    return deltas;
  }
  return [];
}

function markRead(conv: ConversationRow, entityId: string, seq: number): void {
  if ((conv.read_marks.get(entityId) ?? 0) < seq) conv.read_marks.set(entityId, seq);
  markDelivered(conv, entityId, seq);
}

function markDelivered(conv: ConversationRow, entityId: string, seq: number): void {
  if ((conv.delivered_marks.get(entityId) ?? 0) < seq) conv.delivered_marks.set(entityId, seq);
}

/**
 * Each member's delivered and read marks as cursors. A person who turned read receipts off is
 * shown as delivered up to where they read, never as having read.
 */
function receiptsOf(state: TenantState, conv: ConversationRow): NonNullable<TConversationSummary["receipts"]> {
  return conv.participant_entity_ids.flatMap((id) => {
    const delivered = conv.delivered_marks.get(id);
    if (delivered === undefined) return [];
    const read = conv.read_marks.get(id);
    const shares = state.entities.get(id)?.read_receipts !== false;
    return [
      {
        entity_id: id,
        delivered_up_to: `seq:${delivered}`,
        ...(read !== undefined && shares ? { read_up_to: `seq:${read}` } : {}),
      },
    ];
  });
}

/** The conversation's receipts, to its members. */
export function receiptsDelta(state: TenantState, conv: ConversationRow): Delta {
  return {
    event: "conversation.update",
    data: {
      tenant_id: state.tenant_id,
      conversation: { conversation_id: conv.conversation_id, receipts: receiptsOf(state, conv) },
    },
    audience: conv.participants,
  };
}

export function previewText(p: {
  kind: string;
  body_text?: string | undefined;
  card?: { title: string; summary?: string | undefined } | undefined;
  artifact?: { title: string } | undefined;
}): string | undefined {
  const raw = p.card
    ? `${p.card.title}${p.card.summary ? ` — ${p.card.summary}` : ""}`
    : p.artifact
      ? p.artifact.title
      : p.body_text;
  if (raw === undefined) return undefined;
  return raw.length > PREVIEW_MAX ? `${raw.slice(0, PREVIEW_MAX - 1)}…` : raw;
}

function unreadCount(state: TenantState, conv: ConversationRow, viewer: string): number {
  const mark = conv.read_marks.get(viewer) ?? 0;
  const items = state.timeline.get(conv.conversation_id) ?? [];
  let n = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!;
    if (Number(it.cursor.slice(4)) <= mark) break;
    if (it.sender.entity_id !== viewer) n++;
  }
  return n;
}

/** The list row as one viewer sees it (unread is theirs); `null` viewer leaves unread at 0. */
export function summarize(state: TenantState, conv: ConversationRow, viewer: string | null): TConversationSummary {
  const agents = conv.participant_entity_ids.filter((id) => state.entities.get(id)?.actor_type === "agent");
  let active: TConversationSummary["active_job"];
  for (const jobId of state.activeJobsByConversation.get(conv.conversation_id) ?? []) {
    const job = state.jobs.get(jobId)!;
    if (!active || job.updated_at >= (state.jobs.get(active.job_id)?.updated_at ?? ""))
      active = { job_id: job.job_id, title: job.title, state: job.state };
  }
  // A direct chat is named after the other person, whoever looks at it.
  const other =
    conv.kind === "direct" && viewer && conv.participants.has(viewer)
      ? conv.participant_entity_ids.find((id) => id !== viewer)
      : undefined;
  return {
    conversation_id: conv.conversation_id,
    title: (other && state.entities.get(other)?.display_name) || conv.title,
    kind: conv.kind,
    created_by: conv.created_by,
    ...(conv.visibility ? { visibility: conv.visibility } : {}),
    participant_entity_ids: conv.participant_entity_ids,
    ...(conv.last_item_ts ? { last_item_ts: conv.last_item_ts } : {}),
    ...(conv.last_preview ? { last_preview: conv.last_preview } : {}),
    unread_count: viewer ? unreadCount(state, conv, viewer) : 0,
    agent_presence: agents.flatMap((id) => {
      const p = state.presence.get(id);
      if (!p) return [];
      const { tenant_id: _t, ...rest } = p;
      return [rest];
    }),
    ...(active ? { active_job: active } : {}),
    receipts: receiptsOf(state, conv),
  };
}

/** A public channel's row in Browse channels, to the whole workspace (no audience); nothing for a private conversation. */
export function channelDelta(state: TenantState, conv: ConversationRow): Delta[] {
  if (conv.visibility !== "public") return [];
  return [
    {
      event: "channel.update",
      data: {
        tenant_id: state.tenant_id,
        channel: {
          conversation_id: conv.conversation_id,
          title: conv.title,
          member_count: conv.participant_entity_ids.length,
          created_at: conv.created_at,
        },
      },
    },
  ];
}
