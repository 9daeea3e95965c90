// @ts-check
// One small store fed by REST and SSE. Everything that arrives goes through the merge functions
// below, which dedupe by event_id, so a frame seen twice (resume, poll + stream) shows once.

/** @typedef {import('./types.js').TimelineItem} TimelineItem */
/** @typedef {import('./types.js').ConversationSummary} ConversationSummary */
/** @typedef {import('./types.js').JobHead} JobHead */
/** @typedef {import('./types.js').LocalBubble} LocalBubble */
/** @typedef {import('./types.js').Presence} Presence */
/** @typedef {import('./types.js').Entity} Entity */
/** @typedef {import('./types.js').JobDrawer} JobDrawer */

/**
 * @typedef {{
 *   me: import('./types.js').Me | null,
 *   booted: boolean,
 *   signedOut: boolean,
 *   route: import('./router.js').Route,
 *   conversations: ConversationSummary[],
 *   timelines: Record<string, { items: TimelineItem[], loaded: boolean }>,
 *   locals: Record<string, LocalBubble[]>,
 *   jobs: Record<string, JobHead>,
 *   drawer: { job_id: string, data: JobDrawer | null, error: string | null } | null,
 *   presence: Record<string, Presence>,
 *   entities: Record<string, Entity>,
 *   buttons: Record<string, { status: 'pending'|'done'|'error', message?: string, refused?: boolean }>,
 *   connection: 'connecting' | 'live' | 'down',
 *   offline: boolean,
 *   toast: { text: string, n: number } | null,
 *   prefill: { conversationId: string, text: string, n: number } | null,
 *   compose: ComposeMode | null,
 *   dialog: Dialog | null,
 *   threads: Record<string, import('./types.js').ThreadContext>,
 *   typing: Record<string, Record<string, string>>,
 *   pins: Record<string, TimelineItem[]>,
 *   replyThreads: Record<string, import('./threads.js').ReplyThread>,
 *   threadMarks: Record<string, { following: boolean, unread_count: number }>,
 *   channels: import('./types.js').Channel[] | null,
 * }} State
 */

/**
 * What the composer's next send does besides posting: answer a message (a reply) or replace the
 * text of one of mine (an edit).
 * @typedef {{ kind: 'reply' | 'edit', conversationId: string, message_id: string, sender_name: string, snippet: string }} ComposeMode
 */

/**
 * The one dialog open at a time (modal, confirm, new conversation, your profile, where to forward
 * a message, the conversation switcher, the list of shortcuts or a coworker's profile card).
 * @typedef {{ type: 'confirm', title: string, body?: string, okLabel?: string, danger?: boolean, resolve: (ok: boolean) => void }
 *   | { type: 'input', title: string, body?: string, schema: import('./types.js').InputSchema, submitLabel: string,
 *       danger?: boolean, onSubmit: (values: Record<string, string|number|boolean>) => Promise<unknown> }
 *   | { type: 'new-conversation' } | { type: 'channels' } | { type: 'scheduled' } | { type: 'profile' }
 *   | { type: 'schedule', mode: 'send' | 'remind' | 'edit', cid: string, text?: string, messageId?: string, scheduleId?: string, onDone?: () => void } | { type: 'forward', cid: string, item: TimelineItem }
 *   | { type: 'switcher' } | { type: 'shortcuts' } | { type: 'person', entityId: string }} Dialog
 */

/** @type {State} */
let state = {
  me: null,
  booted: false,
  signedOut: false,
  route: { name: "home" },
  conversations: [],
  timelines: {},
  locals: {},
  jobs: {},
  drawer: null,
  presence: {},
  entities: {},
  buttons: {},
  connection: "connecting",
  offline: typeof navigator !== "undefined" && navigator.onLine === false,
  toast: null,
  prefill: null,
  compose: null,
  dialog: null,
  threads: {},
  typing: {},
  pins: {},
  replyThreads: {},
  threadMarks: {},
  channels: null,
};

/** @type {Set<() => void>} */
const listeners = new Set();
let scheduled = false;

export function getState() {
  return state;
}

/** @param {() => void} fn */
export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** @param {Partial<State> | ((s: State) => Partial<State>)} patch */
export function setState(patch) {
  const p = typeof patch === "function" ? patch(state) : patch;
  state = { ...state, ...p };
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    for (const l of listeners) l();
  });
}

/** @param {string | undefined} cursor */
export function seqOf(cursor) {
  const m = /^seq:(\d+)$/.exec(cursor ?? "");
  return m ? Number(m[1]) : -1;
}

/** @param {string} text */
export function toast(text) {
  setState((s) => ({ toast: { text, n: (s.toast?.n ?? 0) + 1 } }));
}

/** @param {ConversationSummary[]} list */
function sortConversations(list) {
  return [...list].sort((a, b) => (b.last_item_ts ?? "").localeCompare(a.last_item_ts ?? ""));
}

/** @param {ConversationSummary[]} items */
export function setConversations(items) {
  const presence = { ...state.presence };
  const jobs = { ...state.jobs };
  for (const c of items) {
    for (const p of c.agent_presence ?? []) presence[p.entity_id] = p;
    if (c.active_job)
      jobs[c.active_job.job_id] = { ...jobs[c.active_job.job_id], ...c.active_job, conversation_id: c.conversation_id };
  }
  setState({ conversations: sortConversations(items), presence, jobs });
}

/** @param {Partial<ConversationSummary> & { conversation_id: string }} patch */
export function mergeConversation(patch) {
  const list = state.conversations.slice();
  const i = list.findIndex((c) => c.conversation_id === patch.conversation_id);
  if (i >= 0) list[i] = { ...list[i], ...patch };
  else
    list.push(
      /** @type {ConversationSummary} */ ({
        title: "Conversation",
        participant_entity_ids: [],
        unread_count: 0,
        ...patch,
      }),
    );
  if (patch.agent_presence) {
    const presence = { ...state.presence };
    for (const p of patch.agent_presence) presence[p.entity_id] = p;
    setState({ presence });
  }
  if (patch.active_job) mergeJob({ ...patch.active_job, conversation_id: patch.conversation_id });
  setState({ conversations: sortConversations(list) });
}

/**
 * A conversation I am no longer in (left or removed): it leaves the list at once.
 * @param {string} conversationId
 */
export function dropConversation(conversationId) {
  setState({ conversations: state.conversations.filter((c) => c.conversation_id !== conversationId) });
}

/** @param {Partial<JobHead> & { job_id: string }} job */
export function mergeJob(job) {
  const prev = state.jobs[job.job_id];
  if (prev?.updated_at && job.updated_at && job.updated_at < prev.updated_at) return;
  setState({ jobs: { ...state.jobs, [job.job_id]: /** @type {JobHead} */ ({ ...prev, ...job }) } });
}

/** @param {TimelineItem} item */
function jobFromItem(item) {
  const card = item.message.card;
  if (!card) return;
  const prev = state.jobs[card.job_id];
  // A card only moves the job header forward when nothing newer (job.update) is known.
  if (prev?.updated_at && prev.updated_at > item.ts) return;
  mergeJob({
    job_id: card.job_id,
    conversation_id: item.message.card?.conversation_id,
    title: card.title,
    state: card.state,
  });
}

/** @type {WeakMap<TimelineItem[], Set<string>>} */
const loadedIds = new WeakMap();

/**
 * Merges timeline items into a conversation, dedupes by event_id, keeps cursor order and
 * retires optimistic bubbles the server has now confirmed.
 * @param {string} cid
 * @param {TimelineItem[]} incoming
 * @param {{ replace?: boolean }} [opts]
 * @returns {TimelineItem[]} the items that were new
 */
export function mergeItems(cid, incoming, opts = {}) {
  const tl = state.timelines[cid] ?? { items: [], loaded: false };
  // The loaded ids are kept with the array they describe and grown with each merge, not
  // gathered again from a long chat's every item on every new message.
  const seen = loadedIds.get(tl.items) ?? new Set(tl.items.map((i) => i.event_id));
  const fresh = incoming.filter((i) => i?.event_id && !seen.has(i.event_id) && (seen.add(i.event_id), true));
  const items = inOrder(tl.items, fresh);
  loadedIds.set(items, seen);
  const pending = state.locals[cid] ?? [];
  // `seen` now holds every loaded event id; a bubble whose message is among them is retired. A
  // bubble is made before its message is sent, so the message that retires it by its client id
  // is among the fresh ones (an earlier merge would have retired it already).
  const clientIds = pending.length
    ? new Set(fresh.map((i) => /** @type {any} */ (i.message).client_message_id).filter(Boolean))
    : new Set();
  const locals = pending.filter((l) => !l.event_ids.some((e) => seen.has(e)) && !clientIds.has(l.local_id));
  for (const i of fresh) jobFromItem(i);
  setState({
    timelines: { ...state.timelines, [cid]: { items, loaded: tl.loaded || !!opts.replace } },
    locals: { ...state.locals, [cid]: locals },
  });
  return fresh;
}

/**
 * `loaded` (in cursor order) joined with `fresh`, in cursor order. The usual case — new items
 * that all come after the loaded ones, already in order — is a plain concatenation; otherwise
 * each item's position is read once before sorting (a long chat has tens of thousands).
 * @param {TimelineItem[]} loaded @param {TimelineItem[]} fresh
 */
function inOrder(loaded, fresh) {
  if (fresh.length === 0) return loaded;
  let last = loaded.length ? seqOf(loaded[loaded.length - 1].cursor) : -1;
  let appended = true;
  for (const i of fresh) {
    const seq = seqOf(i.cursor);
    if (seq <= last || seq < 0) {
      appended = false;
      break;
    }
    last = seq;
  }
  if (appended) return loaded.concat(fresh);
  return loaded
    .concat(fresh)
    .map((i) => ({ i, seq: seqOf(i.cursor) }))
    .sort((a, b) => a.seq - b.seq || a.i.ts.localeCompare(b.i.ts))
    .map((x) => x.i);
}

/** An item changed in place (edited, deleted, reacted to): replaced by event_id where it is loaded. @param {string} cid @param {TimelineItem} item */
export function replaceItem(cid, item) {
  const tl = state.timelines[cid];
  if (!tl?.items.some((i) => i.event_id === item.event_id)) return;
  setState({
    timelines: {
      ...state.timelines,
      [cid]: { ...tl, items: tl.items.map((i) => (i.event_id === item.event_id ? item : i)) },
    },
  });
}

/** @param {string} cid @param {LocalBubble} bubble */
export function addLocal(cid, bubble) {
  setState({ locals: { ...state.locals, [cid]: [...(state.locals[cid] ?? []), bubble] } });
}

/** @param {string} cid @param {string} localId @param {Partial<LocalBubble>} patch */
export function updateLocal(cid, localId, patch) {
  const list = (state.locals[cid] ?? []).map((l) => (l.local_id === localId ? { ...l, ...patch } : l));
  setState({ locals: { ...state.locals, [cid]: list } });
  // The confirming item may have arrived on the stream before the 202 did.
  if (patch.event_ids) mergeItems(cid, []);
}

/** @param {string} cid @param {string} localId */
export function removeLocal(cid, localId) {
  setState({ locals: { ...state.locals, [cid]: (state.locals[cid] ?? []).filter((l) => l.local_id !== localId) } });
}

/** @param {string} key @param {{ status: 'pending'|'done'|'error', message?: string, refused?: boolean } | null} v */
export function setButton(key, v) {
  const buttons = { ...state.buttons };
  if (v) buttons[key] = v;
  else delete buttons[key];
  setState({ buttons });
}

/** @param {Entity[]} list */
export function setEntities(list) {
  const entities = { ...state.entities };
  for (const e of list) if (e?.entity_id) entities[e.entity_id] = { ...entities[e.entity_id], ...e };
  setState({ entities });
}

/** @param {string} entityId @param {Presence} p */
export function setPresence(entityId, p) {
  setState({ presence: { ...state.presence, [entityId]: p } });
}

/** @type {Record<string, ReturnType<typeof setTimeout>>} */
const typingTimers = {};
/**
 * Someone (not me) is typing in a conversation: shown for `ms`, unless it is renewed or their
 * message arrives first.
 * @param {string} cid @param {string} entityId @param {string} name @param {number} ms
 */
export function setTyping(cid, entityId, name, ms) {
  const key = `${cid} ${entityId}`;
  clearTimeout(typingTimers[key]);
  typingTimers[key] = setTimeout(() => clearTyping(cid, entityId), ms);
  setState({ typing: { ...state.typing, [cid]: { ...state.typing[cid], [entityId]: name } } });
}

/** @param {string} cid @param {string} entityId */
export function clearTyping(cid, entityId) {
  if (!state.typing[cid]?.[entityId]) return;
  clearTimeout(typingTimers[`${cid} ${entityId}`]);
  const { [entityId]: _gone, ...rest } = state.typing[cid];
  setState({ typing: { ...state.typing, [cid]: rest } });
}

/**
 * The latest card per job in a timeline: only that card's buttons can still be live.
 * @param {TimelineItem[]} items
 */
export function latestCardByJob(items) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const i of items) if (i.message.card) out[i.message.card.job_id] = i.message.card.card_id;
  return out;
}

/**
 * My direct chat with `entityId`, if there is one: a conversation of kind "direct" (a group that
 * happens to hold just the two of us is not it).
 * @param {ConversationSummary[]} conversations @param {string | undefined} me @param {string} entityId
 */
export function directChatWith(conversations, me, entityId) {
  const ours = (/** @type {ConversationSummary} */ c) =>
    c.participant_entity_ids.length === 2 &&
    c.participant_entity_ids.includes(entityId) &&
    (!me || c.participant_entity_ids.includes(me));
  return (
    conversations.find((c) => c.kind === "direct" && ours(c)) ??
    conversations.find((c) => c.kind === undefined && ours(c))
  );
}

/**
 * A public channel's row as a channel.update frame has it (name, member count), merged into
 * Browse channels when it has been loaded; whether I am in it is my conversation list's to say.
 * @param {{ conversation_id: string, title: string, member_count: number, created_at: string }} ch
 */
export function mergeChannel(ch) {
  const list = state.channels;
  if (!list) return;
  const i = list.findIndex((c) => c.conversation_id === ch.conversation_id);
  const next = list.slice();
  if (i >= 0) next[i] = { ...list[i], ...ch };
  else next.push({ ...ch, joined: false });
  next.sort((a, b) => a.title.localeCompare(b.title));
  setState({ channels: next });
}
