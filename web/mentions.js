// @ts-check
// Mentions in the composer: who can be picked after `@`, which picked or typed `@Name`s are still
// in the text when it is sent (their entity ids go with the message as `mentions`), and which
// mentioned agents are not in the conversation yet. Pure functions over the store's shapes.

/** @typedef {import('./types.js').Entity} Entity */
/** @typedef {import('./types.js').ConversationSummary} ConversationSummary */

/**
 * One person or agent the `@` picker offers.
 * @typedef {{ entity_id: string, name: string, agent: boolean, member: boolean }} Candidate
 */

/**
 * The `#` or `@` the caret is in, with what was typed after it: it starts the text or follows a
 * space, and the word runs up to the caret. Null when the caret is in no such word.
 * @param {string} value @param {number} caret
 * @returns {{ trigger: '#'|'@', query: string, start: number } | null}
 */
export function findTrigger(value, caret) {
  const m = /(^|\s)([#@])([^\s#@]*)$/.exec(value.slice(0, caret));
  if (!m) return null;
  return { trigger: /** @type {'#'|'@'} */ (m[2]), query: m[3] ?? "", start: m.index + (m[1] ?? "").length };
}

/**
 * Whom `@` offers: the conversation's people and agents (not me), then the workspace's agents who
 * are not in it (mentioning one offers to add it). Contacts are not coworkers and are left out.
 * @param {ConversationSummary | undefined} conv @param {Record<string, Entity>} entities @param {string | undefined} me
 * @returns {Candidate[]}
 */
export function mentionCandidates(conv, entities, me) {
  const ids = conv?.participant_entity_ids ?? [];
  /** @type {Candidate[]} */
  const out = [];
  for (const id of ids) {
    const e = entities[id];
    if (!e || id === me || e.actor_type === "system") continue;
    out.push({ entity_id: id, name: e.display_name, agent: e.actor_type === "agent", member: true });
  }
  for (const e of Object.values(entities)) {
    if (e.actor_type !== "agent" || ids.includes(e.entity_id) || e.kind === "contact") continue;
    out.push({ entity_id: e.entity_id, name: e.display_name, agent: true, member: false });
  }
  return out;
}

/**
 * Candidates whose name has a word starting with what was typed ("of" finds Office Scheduler,
 * "sch" too), members first, at most `max`.
 * @param {Candidate[]} all @param {string} query @param {number} [max]
 */
export function matchCandidates(all, query, max = 8) {
  const q = query.toLocaleLowerCase();
  const hit = (/** @type {Candidate} */ c) =>
    !q ||
    c.name
      .toLocaleLowerCase()
      .split(/\s+/)
      .some((w) => w.startsWith(q)) ||
    c.name.toLocaleLowerCase().startsWith(q);
  return all.filter(hit).slice(0, max);
}

/** How a picked person or agent reads in the text. @param {string} name */
export const mentionMark = (name) => `@${name}`;

/**
 * The entity ids the text mentions when it is sent: each picked one whose `@Name` is still in the
 * text, and each `@Name` typed that names exactly one candidate (in full, or an agent's first
 * word as Office also reads it: "@Office"). Once each, in text order.
 * @param {string} text @param {Array<{ entity_id: string, name: string }>} picked @param {Candidate[]} candidates
 * @returns {string[]}
 */
export function mentionsIn(text, picked, candidates) {
  /** @type {Array<{ at: number, id: string }>} */
  const found = [];
  for (const p of picked) {
    const at = markAt(text, p.name);
    if (at >= 0) found.push({ at, id: p.entity_id });
  }
  const first = (/** @type {string} */ name) => name.split(/\s+/)[0]?.toLocaleLowerCase() ?? "";
  for (const c of candidates) {
    if (found.some((f) => f.id === c.entity_id)) continue;
    // A typed name counts only when it names one candidate: the full name, or an agent's first word ("@Office").
    const names = [c.name];
    if (c.agent && first(c.name) !== c.name.toLocaleLowerCase()) names.push(first(c.name));
    for (const name of names) {
      const lower = name.toLocaleLowerCase();
      if (
        candidates.filter((x) => x.name.toLocaleLowerCase() === lower || (x.agent && first(x.name) === lower))
          .length !== 1
      )
        continue;
      const at = markAt(text, name);
      if (at >= 0) {
        found.push({ at, id: c.entity_id });
        break;
      }
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.id);
}

/** Where `@Name` stands as a word of its own (case-insensitive), from `from` on, or -1. @param {string} text @param {string} name @param {number} [from] */
function markAt(text, name, from = 0) {
  const lower = text.toLocaleLowerCase();
  const mark = mentionMark(name).toLocaleLowerCase();
  let at = lower.indexOf(mark, from);
  while (at !== -1) {
    const before = at === 0 ? " " : lower[at - 1];
    const after = lower[at + mark.length];
    if (/\s|[([{"'“]/.test(before ?? " ") && (after === undefined || !/[\p{L}\p{N}_]/u.test(after))) return at;
    at = lower.indexOf(mark, at + 1);
  }
  return -1;
}

/**
 * Mentioned agents who are not in the conversation.
 * @param {string[]} ids @param {Candidate[]} candidates @returns {Candidate[]}
 */
export function absentAgents(ids, candidates) {
  /** @type {Candidate[]} */
  const out = [];
  for (const id of ids) {
    const c = candidates.find((x) => x.entity_id === id);
    if (c?.agent && !c.member) out.push(c);
  }
  return out;
}

/**
 * Whether I may add members here. The policy pack (policy.membership_changes) lets any person in
 * a conversation add a person or agent of the workspace; agents never change membership.
 * @param {{ entity_id: string } | null | undefined} me @param {ConversationSummary | undefined} conv @param {Record<string, Entity>} entities
 */
export function mayAddMembers(me, conv, entities) {
  if (!me || !conv) return false;
  return conv.participant_entity_ids.includes(me.entity_id) && entities[me.entity_id]?.actor_type !== "agent";
}

/**
 * A message's text cut into plain runs and the `@Name`s of the people it mentions (for the
 * highlight in its bubble). Display only.
 * @param {string} text @param {string[]} names @returns {Array<{ text: string, mention?: true }>}
 */
export function splitMentions(text, names) {
  if (!names.length) return [{ text }];
  /** @type {Array<{ at: number, len: number }>} */
  const marks = [];
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    let from = 0;
    for (;;) {
      const abs = markAt(text, name, from);
      if (abs < 0) break;
      const len = name.length + 1;
      if (!marks.some((m) => abs < m.at + m.len && m.at < abs + len)) marks.push({ at: abs, len });
      from = abs + len;
    }
  }
  marks.sort((a, b) => a.at - b.at);
  /** @type {Array<{ text: string, mention?: true }>} */
  const out = [];
  let at = 0;
  for (const m of marks) {
    if (m.at > at) out.push({ text: text.slice(at, m.at) });
    out.push({ text: text.slice(m.at, m.at + m.len), mention: true });
    at = m.at + m.len;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}
