import { formatCursor } from "../../../contracts/primitives.js";
import { SEARCH_LIMITS, type TSearchResults } from "../../../contracts/search.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import { memberConversation } from "../conversations/conversations.js";
import type { Core } from "../core.js";
import { displayName } from "../projections/state.js";
import { cursorParam } from "../conversations/reads.js";
import { toFtsQuery } from "./fts-query.js";
import { parseSnippet } from "./snippet.js";

/**
 * GET /v1/search. The Messenger's read rule: only conversations the caller takes part in, as
 * the projections have them at this moment (someone removed from a group stops finding its
 * messages at once). Admins search like everyone else here; the whole log is the ledger's.
 * The index answers once it holds everything committed before the call (see search-index.ts).
 */
export async function searchMessages(
  core: Core,
  p: Principal,
  q: {
    q?: string | undefined;
    conversation_id?: string | undefined;
    limit?: number | undefined;
    before?: string | undefined;
  },
): Promise<TSearchResults> {
  const state = core.tenant(p.tenantId);
  const { match } = toFtsQuery(q.q ?? "");
  const limit = q.limit ?? SEARCH_LIMITS.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_LIMITS.maxLimit) {
    throw new AppError("VALIDATION_ERROR", `limit must be an integer 1–${SEARCH_LIMITS.maxLimit}`, { field: "limit" });
  }
  const before = cursorParam(q.before, "before", state.head + 1) ?? state.head + 1;
  let conversationIds: string[];
  if (q.conversation_id !== undefined && q.conversation_id !== "") {
    conversationIds = [memberConversation(core, p, q.conversation_id).conversation_id];
  } else {
    conversationIds = [...state.conversations.values()]
      .filter((c) => c.participants.has(p.entityId))
      .map((c) => c.conversation_id);
  }
  const rows = conversationIds.length
    ? await core.search.query({ tenantId: p.tenantId, match, conversationIds, beforeSeq: before, limit: limit + 1 })
    : [];
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return {
    tenant_id: p.tenantId,
    q: q.q ?? "",
    items: page.map((r) => ({
      ...threadOf(state.messages.get(r.message_id)?.message),
      conversation_id: r.conversation_id,
      conversation_title: state.conversations.get(r.conversation_id)?.title ?? r.conversation_id,
      message_id: r.message_id,
      event_id: r.event_id,
      cursor: formatCursor(r.seq),
      ts: r.ts,
      author: {
        entity_id: r.author_entity_id,
        display_name: displayName(state, r.author_entity_id),
        actor_type: r.author_type,
      },
      snippet: parseSnippet(r.marked),
      edited: r.edited,
    })),
    next_cursor: more ? formatCursor(page[page.length - 1]!.seq) : null,
  };
}

/** A thread reply's root, for a hit that opens its thread. */
function threadOf(m: Record<string, unknown> | undefined): { thread_root_message_id?: string } {
  const root = m?.thread_root_message_id;
  return typeof root === "string" ? { thread_root_message_id: root } : {};
}
