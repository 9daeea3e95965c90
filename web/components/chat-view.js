// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { loadThread, pinJob } from "../thread-actions.js";
import { toggleMute } from "../actions.js";
import { stageFiles } from "../uploads.js";
import { otherParty } from "./conversation-list.js";
import { ChatHeader } from "./chat-header.js";
import { Composer } from "./composer.js";
import { Timeline } from "./timeline.js";
import { MembersPanel } from "./members-panel.js";
import { TypingLine } from "./typing-line.js";
import { PinnedPanel } from "./pinned-panel.js";
import { loadPins } from "../message-links.js";
import { ThreadPanel } from "./thread-panel.js";
import { loadThreadMarks } from "../threads.js";
import { startCall } from "../calls.js";

/** @typedef {import('../store.js').State} State */
/** @typedef {import('../types.js').JobHead} JobHead */

/**
 * The job the header chip shows: the pinned one, else the conversation's active job, else
 * the most recently seen job that is still open.
 * @param {State} s @param {string} cid @returns {JobHead | undefined}
 */
function activeJob(s, cid) {
  const pinned = s.threads[cid]?.pinned_job_id;
  if (pinned && s.jobs[pinned]) return s.jobs[pinned];
  const conv = s.conversations.find((c) => c.conversation_id === cid);
  if (conv?.active_job) return { ...conv.active_job, ...s.jobs[conv.active_job.job_id] };
  const items = s.timelines[cid]?.items ?? [];
  for (let i = items.length - 1; i >= 0; i--) {
    const card = items[i].message.card;
    if (!card) continue;
    const j = s.jobs[card.job_id];
    if (j?.open) return j;
  }
  return undefined;
}

/** @param {{ s: State, cid: string }} props */
export function ChatView({ s, cid }) {
  const [drag, setDrag] = useState(false);
  const [showMembers, setShowMembers] = useState(false);
  // The pin lives in the conversation's ThreadContext on the server (it also steers which job a
  // message without a reference applies to).
  useEffect(() => void loadThread(cid), [cid]);
  // Pinned messages: loaded once, then kept by the stream's timeline.update frames.
  useEffect(() => void loadPins(cid), [cid]);
  // My unread marks on this conversation's threads: loaded once, then kept by thread.update frames.
  useEffect(() => void loadThreadMarks(cid), [cid]);
  const threadRoot = s.route.conversationId === cid ? s.route.threadRoot : undefined;
  const [showPins, setShowPins] = useState(false);
  const pins = s.pins[cid] ?? [];
  // On phones the list pane hides when a conversation opens: focus its heading, not <body>.
  useEffect(() => {
    const a = /** @type {HTMLElement | null} */ (document.activeElement);
    const lost = !a || a === document.body || a.offsetParent === null;
    if (lost && matchMedia("(max-width: 760px)").matches)
      /** @type {HTMLElement | null} */ (document.querySelector(".chat-name h1"))?.focus();
  }, [cid]);
  const conv = s.conversations.find((c) => c.conversation_id === cid);
  const ids = conv?.participant_entity_ids ?? [];
  // A group is not any one of its members: its header shows no one's badges or presence.
  const other = conv?.kind === "group" ? undefined : otherParty(s, ids);
  const job = activeJob(s, cid);
  const pinned = !!job && s.threads[cid]?.pinned_job_id === job.job_id;
  const togglePin = () => void pinJob(cid, pinned ? null : (job?.job_id ?? null));
  const jobs = Object.values(s.jobs).filter((j) => j.conversation_id === cid);
  return html`<section class=${`chat${drag ? " dragging" : ""}${threadRoot ? " with-thread" : ""}`} aria-label=${t("chat.conversation")}
    onDragOver=${(/** @type {DragEvent} */ e) => {
      if (e.dataTransfer?.types.includes("Files")) {
        e.preventDefault();
        setDrag(true);
      }
    }}
    onDragLeave=${(/** @type {DragEvent} */ e) => {
      if (e.currentTarget === e.target) setDrag(false);
    }}
    onDrop=${(/** @type {DragEvent} */ e) => {
      e.preventDefault();
      setDrag(false);
      stageFiles(cid, e.dataTransfer?.files ?? []);
    }}>
    <${ChatHeader} title=${conv?.title ?? other?.display_name ?? t("chat.conversation")} other=${other}
      presence=${other ? s.presence[other.entity_id] : undefined} job=${job} members=${ids.length}
      channel=${conv?.visibility === "public"}
      muted=${!!conv?.muted} onMute=${conv ? () => void toggleMute(cid, !conv.muted) : undefined}
      onMembers=${conv ? () => setShowMembers(true) : undefined} pinnedCount=${pins.length} onPins=${() => setShowPins(true)}
      onCall=${s.me?.calls ? () => void startCall(cid) : undefined} />
    ${showPins ? html`<${PinnedPanel} cid=${cid} items=${pins} onClose=${() => setShowPins(false)} />` : null}
    ${showMembers && conv ? html`<${MembersPanel} s=${s} conv=${conv} onClose=${() => setShowMembers(false)} />` : null}
    ${s.offline ? html`<div class="conn conn-offline offline-note" role="status">${t("offline.chat")}</div>` : null}
    <${Timeline} s=${s} cid=${cid} jobs=${jobs} />
    <${TypingLine} s=${s} cid=${cid} />
    <${Composer} cid=${cid} prefill=${s.prefill} job=${job} onPin=${togglePin} pinned=${pinned} jobs=${jobs} />
    ${drag ? html`<div class="drop-hint" aria-hidden="true">${t("chat.drop")}</div>` : null}
    ${threadRoot ? html`<${ThreadPanel} key=${threadRoot} s=${s} cid=${cid} root=${threadRoot} />` : null}
  </section>`;
}
