// @ts-check
import { html, useState } from "../lib/preact.js";
import { uploadFile } from "../actions.js";
import { otherParty } from "./conversation-list.js";
import { ChatHeader } from "./chat-header.js";
import { Composer } from "./composer.js";
import { Timeline } from "./timeline.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {import('../types.js').JobHead} JobHead */

const PIN_KEY = "logline.pinned";
/** @returns {Record<string, string>} */
const pins = () => {
  try {
    return JSON.parse(localStorage.getItem(PIN_KEY) ?? "{}");
  } catch {
    return {};
  }
};

/**
 * The job the header chip shows: the pinned one, else the conversation's active job, else
 * the most recently seen job that is still open.
 * @param {State} s @param {string} cid @returns {JobHead | undefined}
 */
function activeJob(s, cid) {
  const pinned = pins()[cid];
  if (pinned && s.jobs[pinned]) return s.jobs[pinned];
  const conv = s.conversations.find((c) => c.conversation_id === cid);
  if (conv?.active_job) return { ...conv.active_job, ...s.jobs[conv.active_job.job_id] };
  const items = s.timelines[cid]?.items ?? [];
  for (let i = items.length - 1; i >= 0; i--) {
    const card = items[i].message.card;
    if (!card) continue;
    const j = s.jobs[card.job_id];
    if (j && ["proposed", "approved", "in_progress", "waiting_input"].includes(j.state)) return j;
  }
  return undefined;
}

/** @param {{ s: State, cid: string }} props */
export function ChatView({ s, cid }) {
  const [drag, setDrag] = useState(false);
  const [, bump] = useState(0);
  const conv = s.conversations.find((c) => c.conversation_id === cid);
  const ids = conv?.participant_entity_ids ?? [];
  const other = otherParty(s, ids);
  const job = activeJob(s, cid);
  const pinned = !!job && pins()[cid] === job.job_id;
  const togglePin = () => {
    const p = pins();
    if (pinned) delete p[cid];
    else if (job) p[cid] = job.job_id;
    localStorage.setItem(PIN_KEY, JSON.stringify(p));
    bump((n) => n + 1);
  };
  return html`<section class=${`chat${drag ? " dragging" : ""}`} aria-label="Conversation"
    onDragOver=${(/** @type {DragEvent} */ e) => { if (e.dataTransfer?.types.includes("Files")) { e.preventDefault(); setDrag(true); } }}
    onDragLeave=${(/** @type {DragEvent} */ e) => { if (e.currentTarget === e.target) setDrag(false); }}
    onDrop=${(/** @type {DragEvent} */ e) => {
      e.preventDefault();
      setDrag(false);
      for (const f of e.dataTransfer?.files ?? []) void uploadFile(cid, f);
    }}>
    <${ChatHeader} title=${conv?.title ?? other?.display_name ?? "Conversation"} other=${other}
      presence=${other ? s.presence[other.entity_id] : undefined} job=${job} members=${ids.length} />
    <${Timeline} s=${s} cid=${cid} />
    <${Composer} cid=${cid} prefill=${s.prefill} job=${job} onPin=${togglePin} pinned=${pinned} />
    ${drag ? html`<div class="drop-hint" aria-hidden="true">Drop to send the file</div>` : null}
  </section>`;
}
