import type { TStoredEvent } from "../../../contracts/events.js";
import type { TTimelineItem } from "../../../contracts/gateway.js";
import { previewText } from "./conversations.js";
import { displayName, type Delta, type TenantState } from "./state.js";
import { linksOf } from "../previews/links.js";
import { threadReplyDeleted } from "./threads.js";

/** How much of the original a reply's quote shows. */
const SNIPPET_CHARS = 120;

type Message = TTimelineItem["message"];
type Reply = NonNullable<TTimelineItem["reply_to"]>;

function snippetOf(m: Message): string | undefined {
  const text = previewText(m as Parameters<typeof previewText>[0]);
  if (text === undefined) return undefined;
  return text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS - 1)}…` : text;
}

/** A reply's quote of the message it answers, as the projection knows that message now. */
function quoteOf(state: TenantState, messageId: string): Reply {
  const original = state.messages.get(messageId);
  if (!original) return { message_id: messageId };
  if (original.deleted) return { message_id: messageId, sender_name: original.sender.display_name, deleted: true };
  const snippet = snippetOf(original.message);
  return {
    message_id: messageId,
    sender_name: original.sender.display_name,
    ...(snippet !== undefined ? { snippet } : {}),
  };
}

/** The `reply_to` of a new item (empty when the message answers nothing). */
export function replyOf(
  state: TenantState,
  payload: { reply_to_message_id?: string | undefined },
): Pick<TTimelineItem, "reply_to"> {
  const to = payload.reply_to_message_id;
  return to ? { reply_to: quoteOf(state, to) } : {};
}

export function indexMessage(state: TenantState, item: TTimelineItem): void {
  state.messages.set(item.message.message_id, item);
  const to = item.reply_to?.message_id;
  if (!to) return;
  let set = state.repliesTo.get(to);
  if (!set) state.repliesTo.set(to, (set = new Set()));
  set.add(item.message.message_id);
}

/** The messages whose text a frame with this item carries: its own, and the one its quote shows. */
export function carriedBy(item: TTimelineItem): string[] {
  const ids = [item.message.message_id];
  if (item.reply_to?.snippet !== undefined) ids.push(item.reply_to.message_id);
  return ids;
}

function updateFrame(state: TenantState, item: TTimelineItem, conversationId: string): Delta {
  const conv = state.conversations.get(conversationId);
  return {
    event: "timeline.update",
    data: { tenant_id: state.tenant_id, conversation_id: conversationId, item },
    ...(conv ? { audience: conv.participants } : {}),
    carries: carriedBy(item),
  };
}

/** The conversation list's preview follows an edit or deletion of the conversation's last item. */
function previewFrame(state: TenantState, item: TTimelineItem, conversationId: string): Delta[] {
  const conv = state.conversations.get(conversationId);
  const last = state.timeline.get(conversationId)?.at(-1);
  if (!conv || last !== item || !conv.last_preview) return [];
  const text = item.deleted ? undefined : previewText(item.message as Parameters<typeof previewText>[0]);
  const { text: _old, ...rest } = conv.last_preview;
  conv.last_preview = item.deleted ? { kind: "deleted" } : { ...rest, ...(text !== undefined ? { text } : {}) };
  return [
    {
      event: "conversation.update",
      data: {
        tenant_id: state.tenant_id,
        conversation: { conversation_id: conv.conversation_id, last_preview: conv.last_preview },
      },
      audience: conv.participants,
      carries: [item.message.message_id],
    },
  ];
}

/** A pin on (kept once, in pin order) or off: the item says who pinned it, the conversation keeps the order. */
function pin(
  state: TenantState,
  item: TTimelineItem,
  conversationId: string,
  entityId: string,
  on: boolean,
  ts: string,
): void {
  const list = state.pins.get(conversationId) ?? [];
  const id = item.message.message_id;
  const rest = list.filter((x) => x !== id);
  if (on) {
    if (item.pinned) return;
    rest.push(id);
    item.pinned = { by_entity_id: entityId, by_name: displayName(state, entityId), at: ts };
  } else delete item.pinned;
  if (rest.length) state.pins.set(conversationId, rest);
  else state.pins.delete(conversationId);
}

/**
 * message.edited / message.deleted / message.reacted / message.pinned / message.preview_*: the item changes in
 * place (the latest text and `edited_at`; a deleted one keeps only its place and is unpinned; reactions with who put
 * them on; who pinned it; its link previews), and
 * the replies quoting it follow. Each change is a `timeline.update` frame with the whole item.
 */
export function applyMessageChanges(state: TenantState, ev: TStoredEvent): Delta[] {
  if (
    ev.event_type !== "message.edited" &&
    ev.event_type !== "message.deleted" &&
    ev.event_type !== "message.reacted" &&
    ev.event_type !== "message.pinned" &&
    ev.event_type !== "message.preview_added" &&
    ev.event_type !== "message.preview_removed"
  )
    return [];
  const item = state.messages.get(ev.payload.message_id);
  if (!item || item.deleted) return [];
  const deltas: Delta[] = [];
  if (ev.event_type === "message.reacted") {
    react(state, item, ev.actor.entity_id, ev.payload.emoji, ev.payload.on);
    return [updateFrame(state, item, ev.conversation_id)];
  }
  if (ev.event_type === "message.pinned") {
    pin(state, item, ev.conversation_id, ev.actor.entity_id, ev.payload.on, ev.ts);
    return [updateFrame(state, item, ev.conversation_id)];
  }
  if (ev.event_type === "message.preview_added" || ev.event_type === "message.preview_removed") {
    return preview(state, item, ev) ? [updateFrame(state, item, ev.conversation_id)] : [];
  }
  if (ev.event_type === "message.edited") {
    const {
      pii_refs: _refs,
      mentions: _mentions,
      ...kept
    } = item.message as Message & { pii_refs?: unknown; mentions?: unknown };
    const p = ev.payload;
    item.message = {
      ...kept,
      body_text: p.body_text,
      ...(p.pii_refs ? { pii_refs: p.pii_refs } : {}),
      ...(p.mentions ? { mentions: p.mentions } : {}),
    };
    item.edited_at = ev.ts;
    // A link the edit took out takes its preview with it (a link it adds gets one later, as preview_added).
    if (item.previews) {
      const links = linksOf(p.body_text);
      const left = item.previews.filter((x) => links.includes(x.url));
      if (left.length) item.previews = left;
      else delete item.previews;
    }
  } else {
    // Only the message's place is left (in its thread, for a thread reply): no text, card, file, mentions, reactions or quote.
    const root = (item.message as Message & { thread_root_message_id?: string }).thread_root_message_id;
    item.message = {
      message_id: item.message.message_id,
      kind: item.message.kind,
      ...(root !== undefined ? { thread_root_message_id: root } : {}),
    };
    item.deleted = true;
    delete item.edited_at;
    delete item.reactions;
    delete item.forwarded;
    delete item.previews;
    state.previewsOff.delete(item.message.message_id);
    if (item.pinned) pin(state, item, ev.conversation_id, ev.actor.entity_id, false, ev.ts);
    if (item.reply_to) item.reply_to = { message_id: item.reply_to.message_id };
  }
  deltas.push(updateFrame(state, item, ev.conversation_id), ...previewFrame(state, item, ev.conversation_id));
  const root = (item.message as Message & { thread_root_message_id?: string }).thread_root_message_id;
  if (ev.event_type === "message.deleted" && root !== undefined) deltas.push(...threadReplyDeleted(state, root));
  for (const id of state.repliesTo.get(ev.payload.message_id) ?? []) {
    const reply = state.messages.get(id);
    if (!reply || reply.deleted) continue;
    reply.reply_to = quoteOf(state, ev.payload.message_id);
    deltas.push(updateFrame(state, reply, ev.conversation_id));
  }
  return deltas;
}

/**
 * A link preview on (once per link, in the order they came) or taken off by the author: a link
 * taken off stays off, even when its preview was fetched after (the order of the ledger decides).
 * Whether the item changed.
 */
function preview(
  state: TenantState,
  item: TTimelineItem,
  ev: Extract<TStoredEvent, { event_type: "message.preview_added" | "message.preview_removed" }>,
): boolean {
  const id = item.message.message_id;
  const list = item.previews ?? [];
  if (ev.event_type === "message.preview_removed") {
    let off = state.previewsOff.get(id);
    if (!off) state.previewsOff.set(id, (off = new Set()));
    off.add(ev.payload.url);
    const left = list.filter((x) => x.url !== ev.payload.url);
    if (left.length === list.length) return false;
    if (left.length) item.previews = left;
    else delete item.previews;
    return true;
  }
  if (state.previewsOff.get(id)?.has(ev.payload.url) || list.some((x) => x.url === ev.payload.url)) return false;
  // A preview fetched for a link an edit has taken out since is not shown.
  if (!linksOf((item.message as { body_text?: string }).body_text ?? "").includes(ev.payload.url)) return false;
  const { message_id: _id, ...card } = ev.payload;
  item.previews = [...list, card];
  return true;
}

function react(state: TenantState, item: TTimelineItem, entityId: string, emoji: string, on: boolean): void {
  const list = item.reactions ?? [];
  let r = list.find((x) => x.emoji === emoji);
  if (on && !r) list.push((r = { emoji, entity_ids: [], names: [] }));
  if (!r) return;
  const at = r.entity_ids.indexOf(entityId);
  if (on && at < 0) {
    r.entity_ids.push(entityId);
    r.names.push(displayName(state, entityId));
  } else if (!on && at >= 0) {
    r.entity_ids.splice(at, 1);
    r.names.splice(at, 1);
  }
  const left = list.filter((x) => x.entity_ids.length > 0);
  if (left.length) item.reactions = left;
  else delete item.reactions;
}

/**
 * A deleted message's text must not come back through a resume: rewrites one frame the resume
 * log holds that carries it, from the projections as they are now.
 */
export function redactFrame(state: TenantState, messageId: string, event: string, json: string): string {
  const data = JSON.parse(json) as { item?: TTimelineItem; conversation?: { last_preview?: unknown } };
  if (data.item) {
    const now = state.messages.get(data.item.message.message_id);
    if (data.item.message.message_id === messageId && now) data.item = now;
    else if (data.item.reply_to?.message_id === messageId) data.item.reply_to = quoteOf(state, messageId);
  }
  if (event === "conversation.update" && data.conversation?.last_preview)
    data.conversation.last_preview = { kind: "deleted" };
  return JSON.stringify(data);
}
