import { z } from "zod";
import { ZConversationId, ZCursor, ZEntityId, ZIsoTime, ZTenantId } from "./primitives.js";

/**
 * Full-text search of message text in the conversations the caller is in. The query is plain
 * words (never search syntax): each word must appear, the last one may be the start of a word.
 */
export const SEARCH_LIMITS = { queryChars: 200, terms: 16, maxLimit: 50, defaultLimit: 20 } as const;

/** A short extract of the message around the words found; `highlights` are [start, end) offsets into `text` (UTF-16 code units). */
export const ZSearchSnippet = z.object({
  text: z.string(),
  highlights: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
});

export const ZSearchHit = z.object({
  conversation_id: ZConversationId,
  conversation_title: z.string(),
  message_id: z.string(),
  event_id: z.string(),
  /** The message's place in its conversation's timeline (open it with `before`). */
  cursor: ZCursor,
  ts: ZIsoTime,
  author: z.object({ entity_id: ZEntityId, display_name: z.string(), actor_type: z.string() }),
  snippet: ZSearchSnippet,
  /** True when the text found is an edit of the message. */
  edited: z.boolean(),
  /** A reply in a thread: its root (the hit opens that thread, not the timeline). */
  thread_root_message_id: z.string().optional(),
});

/** Hits newest first; `next_cursor` pages on (`?before=`), null when there are no more. */
export const ZSearchResults = z.object({
  tenant_id: ZTenantId,
  q: z.string(),
  items: z.array(ZSearchHit),
  next_cursor: ZCursor.nullable(),
});
export type TSearchResults = z.infer<typeof ZSearchResults>;
export type TSearchHit = z.infer<typeof ZSearchHit>;
