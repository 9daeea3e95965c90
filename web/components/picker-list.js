// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";

/**
 * The composer's pickers (`@` people and agents, `#` jobs) as the WAI-ARIA combobox pattern with
 * list autocomplete: the text box keeps focus and, while a list is open, is the combobox that
 * controls it (`aria-expanded`, `aria-controls`, `aria-activedescendant`); the first match is
 * selected at once. ArrowDown / ArrowUp move (wrapping), Enter or Tab picks, Escape closes and
 * leaves the text as it is. A click picks too, without taking focus from the text box.
 */

/**
 * @template T
 * @typedef {{ key: string, label: string, detail?: string, value: T }} PickerOption
 */

/**
 * State of one open list: the selected option, and the key handler the text box calls first
 * (true when the key was the picker's). `open` is false when there is nothing to pick from.
 * @template T
 * @param {{ id: string, open: boolean, options: PickerOption<T>[], onPick: (value: T) => void, onClose: () => void }} opts
 */
export function useCombobox({ id, open, options, onPick, onClose }) {
  const [active, setActive] = useState(0);
  const keys = options.map((o) => o.key).join("\n");
  // A new list (typing changed the matches) starts again at its first option.
  useEffect(() => setActive(0), [keys, open]);
  const at = options.length ? Math.min(active, options.length - 1) : -1;
  const optionId = (/** @type {number} */ i) => `${id}-opt-${i}`;
  /** @param {KeyboardEvent} e @returns {boolean} */
  const onKeyDown = (e) => {
    if (!open) return false;
    if (e.key === "Escape") {
      e.preventDefault();
      onClose();
      return true;
    }
    if (!options.length) return false;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((at + step + options.length) % options.length);
      return true;
    }
    if ((e.key === "Enter" && !e.shiftKey && !e.isComposing) || (e.key === "Tab" && !e.shiftKey)) {
      e.preventDefault();
      const o = options[at];
      if (o) onPick(o.value);
      return true;
    }
    return false;
  };
  /** Attributes for the text box: a combobox only while its list is open. */
  const inputProps = open
    ? {
        role: "combobox",
        "aria-expanded": "true",
        "aria-controls": id,
        "aria-autocomplete": "list",
        "aria-activedescendant": at >= 0 ? optionId(at) : undefined,
      }
    : {
        role: undefined,
        "aria-expanded": undefined,
        "aria-controls": undefined,
        "aria-autocomplete": undefined,
        "aria-activedescendant": undefined,
      };
  return { active: at, onKeyDown, inputProps, optionId };
}

/**
 * The list itself: a listbox of options (mouse down does not move focus off the text box).
 * @template T
 * @param {{ id: string, label: string, options: PickerOption<T>[], active: number, optionId: (i: number) => string, onPick: (value: T) => void, empty: string, className?: string }} props
 */
export function PickerList({ id, label, options, active, optionId, onPick, empty, className = "" }) {
  // With nothing to pick, a short status instead of an empty listbox.
  if (!options.length)
    return html`<div id=${id} class=${`picker-popup ${className}`} role="status"><p class="muted small picker-empty">${empty}</p></div>`;
  return html`<ul id=${id} class=${`picker-popup ${className}`} role="listbox" aria-label=${label}>
    ${options.map(
      (
        o,
        i,
      ) => html`<li key=${o.key} id=${optionId(i)} role="option" aria-selected=${i === active ? "true" : "false"} class=${i === active ? "picker-option active" : "picker-option"}
        onMouseDown=${(/** @type {Event} */ e) => e.preventDefault()} onClick=${() => onPick(o.value)}>
        <span>${o.label}</span>${o.detail ? html` <span class="muted small">${o.detail}</span>` : null}</li>`,
    )}
  </ul>`;
}
