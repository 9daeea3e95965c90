// @ts-check
import { t } from "../i18n.js";
import { LIMITS } from "../lib/facts.js";
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { EmojiPicker } from "./emoji-picker.js";
import { openRunForm, sendText } from "../actions.js";
import { typingSoon } from "../read-marks.js";
import { sendStaged, stageFiles, useStaged } from "../uploads.js";
import { StagedFiles } from "./staged-files.js";
import { VoiceRecorder } from "./voice-recorder.js";
import { QuickMenu } from "./quick-menu.js";
import { navigate } from "../router.js";
import { placeRefs, refMark } from "../tokens.js";
import { loadDraft, saveDraft } from "../drafts.js";
import { cancelCompose, editLastMine, saveEdit } from "../message-actions.js";
import { getState, setState, subscribe, toast } from "../store.js";
import { stateLabel } from "../format.js";
import { api } from "../api.js";
import {
  absentAgents,
  findTrigger,
  matchCandidates,
  mayAddMembers,
  mentionCandidates,
  mentionMark,
  mentionsIn,
} from "../mentions.js";
import { PickerList, useCombobox } from "./picker-list.js";
import { MentionOffer } from "./mention-offer.js";

/** @typedef {import('../types.js').JobHead} JobHead */

/**
 * Multi-line composer: Enter sends, Shift+Enter adds a line. Never disabled — not even while a
 * job runs. Attach files with the clip, by pasting or by dropping them on the chat: they wait
 * above the box, and what is typed goes with them as their caption. The microphone records a
 * voice note (voice-recorder.js). Typing `#` opens a picker
 * of this conversation's jobs; a picked job becomes a chip and a `#Title` mark where the cursor
 * was, sent as a `[ref …]` token at that place, so the server knows exactly which job the person
 * means (names never resolve identity). Typing `@` opens a picker of the conversation's people and
 * agents (and the workspace's other agents); a picked name goes into the text as `@Name` and its
 * entity id with the message as a mention. Both pickers are comboboxes (picker-list.js).
 * @param {{ cid: string, prefill: { conversationId: string, text: string, n: number } | null, job?: JobHead, onPin: () => void, pinned: boolean, jobs?: JobHead[] }} props
 */
export function Composer({ cid, prefill, job, onPin, pinned, jobs = [] }) {
  const [text, setText] = useState(() => loadDraft(cid));
  const [refs, setRefs] = useState(/** @type {Array<{ job_id: string, title: string }>} */ ([]));
  const [query, setQuery] = useState(/** @type {{ trigger: '#'|'@', query: string, start: number } | null} */ (null));
  const [picked, setPicked] = useState(/** @type {Array<{ entity_id: string, name: string }>} */ ([]));
  // Escape closes a picker for the word it was opened in; typing elsewhere may open it again.
  const dismissed = useRef(-1);
  const [offer, setOffer] = useState(
    /** @type {null | { agents: import('../mentions.js').Candidate[], text: string, ids: string[], replyTo: string | undefined }} */ (
      null
    ),
  );
  const st = getState();
  const conv = st.conversations.find((c) => c.conversation_id === cid);
  const candidates = mentionCandidates(conv, st.entities, st.me?.entity_id);
  const matches =
    query?.trigger === "#"
      ? jobs.filter((j) => (j.title ?? j.job_id).toLowerCase().includes(query.query.toLowerCase())).slice(0, 8)
      : [];
  const people = query?.trigger === "@" ? matchCandidates(candidates, query.query) : [];
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
    setPicked([]);
    setOffer(null);
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
    const replyTo = mode?.kind === "reply" ? mode.message_id : undefined;
    const ids = mentionsIn(text, picked, candidates);
    // An agent mentioned here but not in the conversation would not answer: ask first.
    const absent = absentAgents(ids, candidates);
    if (absent.length) {
      setQuery(null);
      setOffer({ agents: absent, text: out, ids, replyTo });
      return;
    }
    deliver(out, ids, replyTo);
  };
  /** Sends the text with its mentions and empties the box. @param {string} words @param {string[]} ids @param {string | undefined} replyTo */
  const deliver = (words, ids, replyTo) => {
    sendText(cid, words, replyTo, ids);
    if (mode) cancelCompose();
    setText("");
    setRefs([]);
    setPicked([]);
    setQuery(null);
    setOffer(null);
    requestAnimationFrame(() => area.current?.focus());
  };
  /** The offer's Add: each agent joins, then the message goes (so they answer it). On a refusal nothing is sent. */
  const addThenSend = async () => {
    if (!offer) return;
    for (const a of offer.agents) {
      try {
        await api.addMember(cid, a.entity_id);
      } catch (e) {
        toast(t("mentions.offer.failed", { name: a.name, reason: /** @type {Error} */ (e).message }));
        return;
      }
    }
    deliver(offer.text, offer.ids, offer.replyTo);
  };
  const closeOffer = () => {
    setOffer(null);
    requestAnimationFrame(() => area.current?.focus());
  };
  /** @param {string} value @param {number} caret */
  const onText = (value, caret) => {
    setText(value);
    if (value.trim()) typingSoon(cid);
    // Typing again means the text in an open offer is no longer what would be sent.
    setOffer(null);
    const found = findTrigger(value, caret);
    if (!found || found.start !== dismissed.current) dismissed.current = -1;
    setQuery(found && found.start !== dismissed.current ? found : null);
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
  /** An emoji from the picker goes in at the caret (replacing a selection), and the caret follows it. @param {string} emoji */
  const insertEmoji = (emoji) => {
    const el = area.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? start;
    onText(`${text.slice(0, start)}${emoji}${text.slice(end)}`, start + emoji.length);
    const at = start + emoji.length;
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at, at);
    });
  };
  /** The `@query` typed so far becomes `@Name `, and the person or agent a mention. @param {import('../mentions.js').Candidate} c */
  const pickPerson = (c) => {
    const el = area.current;
    const caret = el?.selectionStart ?? text.length;
    const before = text.slice(0, caret).replace(/@[^\s#@]*$/, "");
    const after = text.slice(caret);
    const mark = `${mentionMark(c.name)}${/^\s/.test(after) ? "" : " "}`;
    setText(`${before}${mark}${after}`);
    setPicked((p) =>
      p.some((x) => x.entity_id === c.entity_id) ? p : [...p, { entity_id: c.entity_id, name: c.name }],
    );
    setQuery(null);
    const at = before.length + mark.length;
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at, at);
    });
  };
  // One list for both pickers; an option's value is what picking it does.
  const options =
    query?.trigger === "@"
      ? people.map((c) => ({
          key: c.entity_id,
          label: c.name,
          detail: c.agent ? t(c.member ? "mentions.picker.agent" : "mentions.picker.notMember") : undefined,
          value: () => pickPerson(c),
        }))
      : matches.map((j) => ({
          key: j.job_id,
          label: j.title ?? j.job_id,
          detail: stateLabel(j.state),
          value: () => pick(j),
        }));
  const combo = useCombobox({
    id: "composer-picker",
    open: query !== null,
    options,
    onPick: (run) => run(),
    onClose: () => {
      dismissed.current = query?.start ?? -1;
      setQuery(null);
    },
  });
  /** Removing a chip removes its mark from the text too. @param {{ job_id: string, title: string }} r */
  const unpick = (r) => {
    setRefs((x) => x.filter((y) => y.job_id !== r.job_id));
    setText((was) => was.replace(new RegExp(`${escapeRe(refMark(r.title))} ?`), ""));
  };
  /** @param {string} words */
  const useTemplate = (words) => {
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
      query !== null
        ? html`<${PickerList} id="composer-picker" className=${query.trigger === "#" ? "job-picker" : "mention-picker"}
            label=${t(query.trigger === "#" ? "mentions.picker.jobs" : "mentions.picker.people")}
            empty=${t(query.trigger === "#" ? "mentions.picker.noJobs" : "mentions.picker.noPeople")}
            options=${options} active=${combo.active} optionId=${combo.optionId} onPick=${(/** @type {() => void} */ run) => run()} />`
        : null
    }
    ${
      offer
        ? html`<${MentionOffer} agents=${offer.agents} mayAdd=${mayAddMembers(st.me, conv, st.entities)} onAdd=${addThenSend}
            onSend=${() => deliver(offer.text, offer.ids, offer.replyTo)} onCancel=${closeOffer} />`
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
    <${QuickMenu} job=${job} pinned=${pinned} onPin=${onPin} onTemplate=${useTemplate} onOpenJob=${(/** @type {string} */ id) => navigate(`/jobs/${encodeURIComponent(id)}`)} />
    <${EmojiPicker} onPick=${insertEmoji} />
    <button type="button" class="icon-btn" aria-label=${t("composer.attach")} title=${t("composer.attach")} onClick=${() => file.current?.click()}><${Icon} name="clip" /></button>
    <input ref=${file} type="file" multiple class="visually-hidden" tabIndex="-1" aria-hidden="true" data-testid="file-input"
      onChange=${(/** @type {any} */ e) => {
        stageFiles(cid, e.currentTarget.files ?? []);
        e.currentTarget.value = "";
        area.current?.focus();
      }} />
    <span id="composer-format-hint" class="visually-hidden">${t("composer.format_hint")}</span>
    <textarea ref=${area} id="composer-input" rows="1" class="composer-input" placeholder=${staged.length ? t("composer.caption") : t("composer.placeholder")} aria-label=${t("composer.message")} maxlength=${LIMITS.messageChars}
      title=${t("composer.format_hint")} aria-describedby="composer-format-hint"
      onPaste=${(/** @type {ClipboardEvent} */ e) => {
        // A pasted picture (a screenshot, a copied image) is staged like a picked file; text pastes as text.
        const files = [...(e.clipboardData?.files ?? [])];
        if (!files.length || e.clipboardData?.types.includes("text/plain")) return;
        e.preventDefault();
        stageFiles(cid, files);
      }}
      value=${text} onInput=${(/** @type {any} */ e) => onText(e.currentTarget.value, e.currentTarget.selectionStart ?? e.currentTarget.value.length)}
      ...${combo.inputProps}
      onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
        if (combo.onKeyDown(e)) return;
        // ↑ in an empty box edits my last message here (Escape leaves the edit).
        if (
          e.key === "ArrowUp" &&
          !text &&
          !mode &&
          !staged.length &&
          !e.shiftKey &&
          !e.altKey &&
          !e.ctrlKey &&
          !e.metaKey &&
          editLastMine(cid)
        ) {
          e.preventDefault();
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
    <${VoiceRecorder} cid=${cid} />
    <button type="button" class="icon-btn send-later" aria-label=${t("scheduled.send_later")} title=${t("scheduled.send_later")}
      onClick=${() => {
        const words = placeRefs(text, refs);
        // A scheduled message is text only: staged files are not taken along unseen.
        if (staged.length) return toast(t("scheduled.text_only"));
        if (!words || mode) return toast(t("scheduled.type_first"));
        setState({ dialog: { type: "schedule", mode: "send", cid, text: words, onDone: () => setText("") } });
      }}><${Icon} name="clock" /></button>
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
