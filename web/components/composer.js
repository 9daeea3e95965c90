// @ts-check
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { sendText, uploadFile } from "../actions.js";
import { navigate } from "../router.js";

/** @typedef {import('../types.js').JobHead} JobHead */

const TEMPLATES = [
  { label: "Schedule a meeting", text: "Can you schedule a 30-min call with " },
  { label: "Send an invoice", text: "Please send invoice " },
  { label: "Follow up with a customer", text: "Can you follow up with " },
];

/**
 * Multi-line composer: Enter sends, Shift+Enter adds a line. Never disabled — not even while a
 * job runs. Attach a file with the clip or by dropping it on the chat.
 * @param {{ cid: string, prefill: { conversationId: string, text: string, n: number } | null, job?: JobHead, onPin: () => void, pinned: boolean }} props
 */
export function Composer({ cid, prefill, job, onPin, pinned }) {
  const [text, setText] = useState("");
  const [menu, setMenu] = useState(false);
  const area = useRef(/** @type {HTMLTextAreaElement | null} */ (null));
  const file = useRef(/** @type {HTMLInputElement | null} */ (null));

  useEffect(() => {
    if (prefill && prefill.conversationId === cid) {
      setText(prefill.text);
      requestAnimationFrame(() => {
        const el = area.current;
        if (el) { el.focus(); el.setSelectionRange(el.value.length, el.value.length); }
      });
    }
  }, [prefill?.n]);
  useEffect(() => setText(""), [cid]);
  useLayoutGrow(area, text);

  const send = () => {
    const t = text.trim();
    if (!t) return;
    sendText(cid, t);
    setText("");
    area.current?.focus();
  };
  /** @param {string} t */
  const useTemplate = (t) => {
    setMenu(false);
    setText(t);
    requestAnimationFrame(() => area.current?.focus());
  };

  return html`<footer class="composer">
    ${menu ? html`<div class="quick-menu" role="menu" aria-label="Quick actions">
      <span class="quick-title">Start a job</span>
      ${TEMPLATES.map((t) => html`<button key=${t.label} type="button" role="menuitem" onClick=${() => useTemplate(t.text)}>${t.label}</button>`)}
      ${job ? html`<span class="quick-title">Current job</span>
        <button type="button" role="menuitem" onClick=${() => { setMenu(false); navigate(`/jobs/${encodeURIComponent(job.job_id)}`); }}>Open “${job.title ?? job.job_id}”</button>
        <button type="button" role="menuitem" onClick=${() => { setMenu(false); onPin(); }}>${pinned ? "Unpin job from header" : "Pin job to header"}</button>` : null}
    </div>` : null}
    <button type="button" class="icon-btn" aria-label="Quick actions" aria-expanded=${menu} title="Quick actions" onClick=${() => setMenu(!menu)}><${Icon} name="bolt" /></button>
    <button type="button" class="icon-btn" aria-label="Attach a file" title="Attach a file" onClick=${() => file.current?.click()}><${Icon} name="clip" /></button>
    <input ref=${file} type="file" class="visually-hidden" tabIndex="-1" aria-hidden="true" data-testid="file-input"
      onChange=${(/** @type {any} */ e) => { for (const f of e.currentTarget.files ?? []) void uploadFile(cid, f); e.currentTarget.value = ""; }} />
    <textarea ref=${area} rows="1" class="composer-input" placeholder="Type a message" aria-label="Message"
      value=${text} onInput=${(/** @type {any} */ e) => setText(e.currentTarget.value)}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); send(); }
        if (e.key === "Escape") setMenu(false);
      }}></textarea>
    <button type="button" class="send" aria-label="Send" title="Send (Enter)" onClick=${send}><${Icon} name="send" /></button>
  </footer>`;
}

/** Grows the textarea with its content up to a few lines. @param {{ current: HTMLTextAreaElement | null }} ref @param {string} text */
function useLayoutGrow(ref, text) {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [text]);
}
