// @ts-check
import { LIMITS } from "../lib/facts.js";
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { openRunForm, sendText } from "../actions.js";
import { sendStaged, stageFiles, useStaged } from "../uploads.js";
import { StagedFiles } from "./staged-files.js";
import { QuickMenu } from "./quick-menu.js";
import { navigate } from "../router.js";
import { placeRefs, refMark } from "../tokens.js";
import { loadDraft, saveDraft } from "../drafts.js";
import { cancelCompose, saveEdit } from "../message-actions.js";
import { getState, subscribe } from "../store.js";

/** @typedef {import('../types.js').JobHead} JobHead */

/**
 * Multi-line composer: Enter sends, Shift+Enter adds a line. Never disabled — not even while a
 * job runs. Attach files with the clip, by pasting or by dropping them on the chat: they wait
 * above the box, and what is typed goes with them as their caption. Typing `#` opens a picker
 * of this conversation's jobs; a picked job becomes a chip and a `#Title` mark where the cursor
 * was, sent as a `[ref …]` token at that place, so the server knows exactly which job the person
 * means (names never resolve identity).
 * @param {{ cid: string, prefill: { conversationId: string, text: string, n: number } | null, job?: JobHead, onPin: () => void, pinned: boolean, jobs?: JobHead[] }} props
 */
export function Composer({ cid, prefill, job, onPin, pinned, jobs = [] }) {
  const [text, setText] = useState(() => loadDraft(cid));
  const [refs, setRefs] = useState(/** @type {Array<{ job_id: string, title: string }>} */ ([]));
  const [query, setQuery] = useState(/** @type {string | null} */ (null));
  const matches = query === null ? [] : jobs.filter((j) => (j.title ?? j.job_id).toLowerCase().includes(query.toLowerCase())).slice(0, 8);
  const area = useRef(/** @type {HTMLTextAreaElement | null} */ (null));
  const file = useRef(/** @type {HTMLInputElement | null} */ (null));
  const staged = useStaged(cid);

  useEffect(() => {
    if (prefill && prefill.conversationId === cid) {
      setText(prefill.text);
      requestAnimationFrame(() => {
        const el = area.current;
        if (el) {
          el.focus();
          el.setSelectionRange(el.value.length, el.value.length);
        }
      });
    }
  }, [prefill?.n]);
  // Each conversation keeps its own draft; sending empties the box and so clears it. The text
  // belongs to `draftOf` (it runs before the switch below, so the old text never lands on the new conversation).
  const draftOf = useRef(cid);
  useEffect(() => {
    if (draftOf.current === cid) saveDraft(cid, text);
  }, [cid, text]);
  useEffect(() => {
    draftOf.current = cid;
    setText(loadDraft(cid));
    setRefs([]);
    setQuery(null);
  }, [cid]);
  useLayoutGrow(area, text);
  const mode = useComposeMode(cid);
  /** Leaving reply or edit mode; an edit's text is not a draft to keep. */
  const leaveMode = () => {
    if (mode?.kind === "edit") setText("");
    cancelCompose();
    area.current?.focus();
  };

  const send = () => {
    const t = placeRefs(text, refs);
    // Files picked, pasted or dropped go now, with what was typed as their caption.
    if (staged.length) {
      sendStaged(cid, t);
      setText("");
      setRefs([]);
      setQuery(null);
      area.current?.focus();
      return;
    }
    if (!t) return;
    if (mode?.kind === "edit") {
      void saveEdit(cid, mode.message_id, t).then((ok) => {
        if (!ok) return;
        setText("");
        cancelCompose();
      });
      return;
    }
    // "/run <tool>" with nothing after it opens the tool's form instead of sending.
    const run = /^\/run\s+(\S+)\s*$/.exec(t);
    if (run && openRunForm(cid, run[1])) {
      setText("");
      return;
    }
    sendText(cid, t, mode?.kind === "reply" ? mode.message_id : undefined);
    if (mode) cancelCompose();
    setText("");
    setRefs([]);
    setQuery(null);
    area.current?.focus();
  };
  /** @param {string} value @param {number} caret */
  const onText = (value, caret) => {
    setText(value);
    const m = /(^|\s)#([^\s#]*)$/.exec(value.slice(0, caret));
    setQuery(m ? m[2] : null);
  };
  /** The `#query` typed so far becomes the job's mark, right there, with the caret after it. @param {JobHead} j */
  const pick = (j) => {
    const el = area.current;
    const caret = el?.selectionStart ?? text.length;
    const title = j.title ?? j.job_id;
    const before = text.slice(0, caret).replace(/#[^\s#]*$/, "");
    const after = text.slice(caret);
    const known = refs.some((x) => x.job_id === j.job_id);
    // A job picked twice keeps its first place: one token per job.
    const mark = known ? "" : `${refMark(title)}${/^\s/.test(after) ? "" : " "}`;
    setText(`${before}${mark}${after}`);
    if (!known) setRefs((r) => [...r, { job_id: j.job_id, title }]);
    setQuery(null);
    const at = before.length + mark.length;
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at, at);
    });
  };
  /** Removing a chip removes its mark from the text too. @param {{ job_id: string, title: string }} r */
  const unpick = (r) => {
    setRefs((x) => x.filter((y) => y.job_id !== r.job_id));
    setText((t) => t.replace(new RegExp(`${escapeRe(refMark(r.title))} ?`), ""));
  };
  /** @param {string} t */
  const useTemplate = (t) => {
    setText(t);
    requestAnimationFrame(() => area.current?.focus());
  };

  return html`<footer class="composer">
    ${
      mode
        ? html`<div class="compose-mode" role="status">
      <span class="compose-mode-text"><strong>${mode.kind === "edit" ? "Editing your message" : `Replying to ${mode.sender_name}`}</strong>
        <span class="muted">${mode.snippet}</span></span>
      <button type="button" class="chip-x" aria-label=${mode.kind === "edit" ? "Cancel editing (Esc)" : "Cancel reply (Esc)"} onClick=${leaveMode}>×</button>
    </div>`
        : null
    }
    ${
      query !== null
        ? html`<ul class="job-picker" role="listbox" aria-label="Pick a job">
      ${
        matches.length
          ? matches.map(
              (j) => html`<li key=${j.job_id}><button type="button" role="option" onMouseDown=${(/** @type {Event} */ e) => e.preventDefault()} onClick=${() => pick(j)}>
        <span>${j.title ?? j.job_id}</span> <span class="muted small">${j.state.replace("_", " ")}</span></button></li>`,
            )
          : html`<li class="muted small">No job matches</li>`
      }
    </ul>`
        : null
    }
    ${
      refs.length
        ? html`<div class="ref-chips" aria-label="Referenced jobs">${refs.map(
            (r) => html`<span key=${r.job_id} class="token-chip token-ref"># ${r.title}
      <button type="button" class="chip-x" aria-label=${`Remove ${r.title}`} onClick=${() => unpick(r)}>×</button></span>`,
          )}</div>`
        : null
    }
    <${StagedFiles} cid=${cid} files=${staged} />
    <${QuickMenu} job=${job} pinned=${pinned} onPin=${onPin} onTemplate=${useTemplate} onOpenJob=${(/** @type {string} */ id) => navigate(`/jobs/${encodeURIComponent(id)}`)} />
    <button type="button" class="icon-btn" aria-label="Attach a file" title="Attach a file" onClick=${() => file.current?.click()}><${Icon} name="clip" /></button>
    <input ref=${file} type="file" multiple class="visually-hidden" tabIndex="-1" aria-hidden="true" data-testid="file-input"
      onChange=${(/** @type {any} */ e) => {
        stageFiles(cid, e.currentTarget.files ?? []);
        e.currentTarget.value = "";
        area.current?.focus();
      }} />
    <textarea ref=${area} id="composer-input" rows="1" class="composer-input" placeholder=${staged.length ? "Add a caption" : "Type a message"} aria-label="Message" maxlength=${LIMITS.messageChars}
      onPaste=${(/** @type {ClipboardEvent} */ e) => {
        // A pasted picture (a screenshot, a copied image) is staged like a picked file; text pastes as text.
        const files = [...(e.clipboardData?.files ?? [])];
        if (!files.length || e.clipboardData?.types.includes("text/plain")) return;
        e.preventDefault();
        stageFiles(cid, files);
      }}
      value=${text} onInput=${(/** @type {any} */ e) => onText(e.currentTarget.value, e.currentTarget.selectionStart ?? e.currentTarget.value.length)}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (e.key === "Enter" && !e.shiftKey && !e.isComposing && query !== null && matches[0]) {
          e.preventDefault();
          pick(matches[0]);
          return;
        }
        if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
          e.preventDefault();
          send();
        }
        if (e.key === "Escape") {
          setQuery(null);
          if (mode && query === null) leaveMode();
        }
      }}></textarea>
    <button type="button" class="send" aria-label="Send" title="Send (Enter)" onClick=${send}><${Icon} name="send" /></button>
  </footer>`;
}

/** The reply or edit this conversation's composer is in, if any (read from the store, kept current). @param {string} cid */
function useComposeMode(cid) {
  const [mode, setMode] = useState(() => getState().compose);
  useEffect(() => subscribe(() => setMode(getState().compose)), []);
  useEffect(() => {
    if (getState().compose && getState().compose?.conversationId !== cid) cancelCompose();
  }, [cid]);
  return mode?.conversationId === cid ? mode : null;
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

/** @param {string} s */
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
