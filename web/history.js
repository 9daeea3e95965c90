// @ts-check
// Older history, page by page: the timeline first loads the latest page; scrolling up (or the
// "Load earlier messages" button) asks for the page before the oldest item shown, until the
// server says there is nothing older (next_cursor null).
import { api } from "./api.js";
import { getState, mergeItems, mergeJob, seqOf, setState } from "./store.js";

const OLDER_PAGE = 200;

/** @type {Record<string, { cursor: string | null, loading: boolean }>} */
const older = {};

/**
 * What a timeline page said about older items. A reload of the latest page (reconnect) never
 * forgets pages already loaded further back: the oldest cursor wins, and "nothing older" stays.
 * @param {string} cid @param {string | null | undefined} cursor
 */
export function noteOlder(cid, cursor) {
  const prev = older[cid];
  const next = cursor ?? null;
  if (prev && (prev.cursor === null || (next !== null && seqOf(next) > seqOf(prev.cursor)))) return;
  older[cid] = { cursor: next, loading: prev?.loading ?? false };
  setState({});
}

/** @param {string} cid @returns {{ known: boolean, more: boolean, loading: boolean }} */
export function olderState(cid) {
  const o = older[cid];
  return { known: !!o, more: !!o?.cursor, loading: !!o?.loading };
}

/**
 * Loads the page before the oldest item shown; resolves false when there is nothing older.
 * @param {string} cid @param {number} [limit] items (the server takes up to 1,000)
 */
export async function loadOlder(cid, limit = OLDER_PAGE) {
  const o = older[cid];
  if (!o?.cursor || o.loading) return false;
  o.loading = true;
  setState({});
  try {
    const r = await api.timelineBefore(cid, o.cursor, Math.min(1000, Math.max(1, Math.round(limit))));
    mergeItems(cid, Array.isArray(r?.items) ? r.items : []);
    for (const j of Array.isArray(r?.jobs) ? r.jobs : []) mergeJob(j);
    older[cid] = { cursor: r?.next_cursor ?? null, loading: false };
    setState({});
    return true;
  } catch {
    o.loading = false;
    setState({});
    return false;
  }
}

/** The oldest cursor shown in a conversation (-1 when nothing is). @param {string} cid */
export function oldestSeq(cid) {
  const items = getState().timelines[cid]?.items ?? [];
  return items.length ? seqOf(items[0].cursor) : -1;
}
