// @ts-check
import { fold } from "../format.js";
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { navigate } from "../router.js";
import { setState } from "../store.js";
import { ModalFrame } from "./modal-frame.js";
import { PickerList, useCombobox } from "./picker-list.js";

/** @typedef {import('../store.js').State} State */

/**
 * Ctrl+K (⌘K on a Mac): jump to any conversation by typing part of its name. The box is a
 * combobox over the matches (names that start with what was typed first, then the rest, each
 * in the list's order); Enter opens the selected one, Escape closes without moving.
 * @param {{ s: State }} props
 */
export function QuickSwitcher({ s }) {
  const [query, setQuery] = useState("");
  const close = () => setState({ dialog: null });
  const q = fold(query.trim());
  const named = s.conversations.map((c) => ({ c, name: fold(c.title ?? "") }));
  const hits = q
    ? [
        ...named.filter((n) => n.name.startsWith(q)),
        ...named.filter((n) => !n.name.startsWith(q) && n.name.includes(q)),
      ]
    : named;
  const options = hits.slice(0, 12).map(({ c }) => ({
    key: c.conversation_id,
    label: c.title ?? c.conversation_id,
    ...(c.unread_count ? { detail: t("switcher.unread", { n: c.unread_count }) } : {}),
    value: c.conversation_id,
  }));
  /** @param {string} cid */
  const open = (cid) => {
    setState({ dialog: null });
    navigate(`/c/${encodeURIComponent(cid)}`);
    requestAnimationFrame(() => document.getElementById("composer-input")?.focus());
  };
  const combo = useCombobox({ id: "switcher-list", open: true, options, onPick: open, onClose: close });
  return html`<${ModalFrame} title=${t("switcher.title")} onClose=${close}>
    <div class="switcher">
      <input class="switcher-input" type="text" autofocus autocomplete="off" spellcheck="false" aria-label=${t("switcher.label")} placeholder=${t("switcher.placeholder")}
        value=${query} ...${combo.inputProps}
        onInput=${(/** @type {InputEvent} */ e) => setQuery(/** @type {HTMLInputElement} */ (e.currentTarget).value)}
        onKeyDown=${(/** @type {KeyboardEvent} */ e) => void combo.onKeyDown(e)} />
      <${PickerList} id="switcher-list" label=${t("switcher.list")} options=${options} active=${combo.active} optionId=${combo.optionId} onPick=${open}
        empty=${t("switcher.none")} className="switcher-list" />
    </div>
  </${ModalFrame}>`;
}
