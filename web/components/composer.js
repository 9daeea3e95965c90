// @ts-check
import { t } from "../i18n.js";
import { LIMITS } from "../lib/facts.js";
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { openRunForm, sendText } from "../actions.js";
import { sendStaged, stageFiles, useStaged } from "../uploads.js";
import { StagedFiles } from "./staged-files.js";
import { navigate } from "../router.js";
import { placeRefs, refMark } from "../tokens.js";
import { loadDraft, saveDraft } from "../drafts.js";
import { cancelCompose, saveEdit } from "../message-actions.js";
import { getState, subscribe } from "../store.js";
import { stateLabel } from "../format.js";

/** @typedef {import('../types.js').JobHead} JobHead */

/** Quick actions that start a message: composer.tpl.<name> is the label, <name>_text the words put in the box. */
const TEMPLATES = ["meeting", "invoice", "follow_up"];

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
  const [menu, setMenu] = useState(false);
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
    const out = placeRefs(text, refs);
    // Files picked, pasted or dropped go now, with what was typed as their caption.
    if (staged.length) {
      sendStaged(cid, out);
      setText("");
      setRefs([]);
      setQuery(null);
      area.current?.focus();
      return;
    }
    if (!out) return;
    if (mode?.kind === "edit") {
      void saveEdit(cid, mode.message_id, out).then((ok) => {
        if (!ok) return;
        setText("");
        cancelCompose();
      });
      return;
    }
    // "/run <tool>" with nothing after it opens the tool's form instead of sending.
    const run = /^\/run\s+(\S+)\s*$/.exec(out);
    if (run && openRunForm(cid, run[1])) {
      setText("");
      return;
    }
    sendText(cid, out, mode?.kind === "reply" ? mode.message_id : undefined);
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
    setText((was) => was.replace(new RegExp(`${escapeRe(refMark(r.title))} ?`), ""));
  };
  /** @param {string} words */
  const useTemplate = (words) => {
    setMenu(false);
    setText(words);
    requestAnimationFrame(() => area.current?.focus());
  };

  return html`<footer class="composer">
    ${
      mode
        ? html`<div class="compose-mode" role="status">
      <span class="compose-mode-text"><strong>${mode.kind === "edit" ? t("composer.editing") : t("composer.replying", { name: mode.sender_name })}</strong>
        <span class="muted">${mode.snippet}</span></span>
      <button type="button" class="chip-x" aria-label=${mode.kind === "edit" ? t("composer.cancel_edit") : t("composer.cancel_reply")} onClick=${leaveMode}>×</button>
    </div>`
        : null
    }
    ${
      menu
        ? html`<div class="quick-menu" role="menu" aria-label=${t("composer.quick_actions")}>
      <span class="quick-title">${t("composer.start_job")}</span>
      ${TEMPLATES.map((name) => html`<button key=${name} type="button" role="menuitem" onClick=${() => useTemplate(t(`composer.tpl.${name}_text`))}>${t(`composer.tpl.${name}`)}</button>`)}
      ${
        job
          ? html`<span class="quick-title">${t("composer.current_job")}</span>
        <button type="button" role="menuitem" onClick=${() => {
          setMenu(false);
          navigate(`/jobs/${encodeURIComponent(job.job_id)}`);
        }}>${t("composer.open_job", { title: job.title ?? job.job_id })}</button>
        <button type="button" role="menuitem" onClick=${() => {
          setMenu(false);
          onPin();
        }}>${pinned ? t("composer.unpin") : t("composer.pin")}</button>`
          : null
      }
    </div>`
        : null
    }
    ${
      query !== null
        ? html`<ul class="job-picker" role="listbox" aria-label=${t("composer.pick_job")}>
      ${
        matches.length
          ? matches.map(
              (j) => html`<li key=${j.job_id}><button type="button" role="option" onMouseDown=${(/** @type {Event} */ e) => e.preventDefault()} onClick=${() => pick(j)}>
        <span>${j.title ?? j.job_id}</span> <span class="muted small">${stateLabel(j.state)}</span></button></li>`,
            )
          : html`<li class="muted small">${t("composer.no_job")}</li>`
      }
    </ul>`
        : null
    }
    ${
      refs.length
        ? html`<div class="ref-chips" aria-label=${t("composer.refs")}>${refs.map(
            (r) => html`<span key=${r.job_id} class="token-chip token-ref"># ${r.title}
      <button type="button" class="chip-x" aria-label=${t("common.remove_named", { name: r.title })} onClick=${() => unpick(r)}>×</button></span>`,
          )}</div>`
        : null
    }
    <${StagedFiles} cid=${cid} files=${staged} />
    <button type="button" class="icon-btn" aria-label=${t("composer.quick_actions")} aria-expanded=${menu} title=${t("composer.quick_actions")} onClick=${() => setMenu(!menu)}><${Icon} name="bolt" /></button>
    <button type="button" class="icon-btn" aria-label=${t("composer.attach")} title=${t("composer.attach")} onClick=${() => file.current?.click()}><${Icon} name="clip" /></button>
    <input ref=${file} type="file" multiple class="visually-hidden" tabIndex="-1" aria-hidden="true" data-testid="file-input"
      onChange=${(/** @type {any} */ e) => {
        stageFiles(cid, e.currentTarget.files ?? []);
        e.currentTarget.value = "";
        area.current?.focus();
      }} />
    <textarea ref=${area} id="composer-input" rows="1" class="composer-input" placeholder=${staged.length ? t("composer.caption") : t("composer.placeholder")} aria-label=${t("composer.message")} maxlength=${LIMITS.messageChars}
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
          setMenu(false);
          setQuery(null);
          if (mode && query === null && !menu) leaveMode();
        }
      }}></textarea>
    <button type="button" class="send" aria-label=${t("composer.send")} title=${t("composer.send_title")} onClick=${send}><${Icon} name="send" /></button>
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
