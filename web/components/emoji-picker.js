// @ts-check
import { fold } from "../format.js";
import { t } from "../i18n.js";
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";

/**
 * The composer's emoji picker: a button that opens a small non-modal dialog with a search field,
 * the emoji groups as toggle buttons, and the emoji as one grid of buttons, each named (the
 * Unicode CLDR name in the person's language). The set comes from this server
 * (`/app/emoji/<lang>.json`), loaded on first open; nothing is fetched from anywhere else.
 *
 * Keyboard: the search field has focus on open; ArrowDown moves into the grid, whose buttons are
 * one Tab stop (arrows move by one or by a row, Home / End to the ends); Enter or a click
 * inserts the emoji at the caret and closes the picker; Escape closes it and puts focus back on
 * the button; focus leaving the picker closes it.
 */

/** @typedef {{ key: string, emoji: Array<[string, string, string]> }} EmojiGroup */

/** Emoji per row of the grid (the arrow keys move by this much up and down). */
const COLUMNS = 8;
/** How many matches a search shows. */
const MATCHES_MAX = 96;

/** @type {Map<string, Promise<EmojiGroup[]>>} */
const sets = new Map();
/** @param {string} lang @returns {Promise<EmojiGroup[]>} */
function loadSet(lang) {
  let p = sets.get(lang);
  if (!p) {
    p = fetch(`/app/emoji/${encodeURIComponent(lang)}.json`)
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      // Each emoji's third field becomes what a search matches: its name and keywords, folded once.
      .then((d) =>
        /** @type {EmojiGroup[]} */ (d.groups).map((g) => ({
          ...g,
          emoji: g.emoji.map(
            ([e, name, tags]) => /** @type {[string, string, string]} */ ([e, name, fold(`${name} ${tags}`)]),
          ),
        })),
      );
    p.catch(() => sets.delete(lang));
    sets.set(lang, p);
  }
  return p;
}

/** @param {{ onPick: (emoji: string) => void }} props */
export function EmojiPicker({ onPick }) {
  const [open, setOpen] = useState(false);
  const [groups, setGroups] = useState(/** @type {EmojiGroup[] | null} */ (null));
  const [failed, setFailed] = useState(false);
  const [group, setGroup] = useState(0);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const button = useRef(/** @type {HTMLButtonElement | null} */ (null));
  const search = useRef(/** @type {HTMLInputElement | null} */ (null));
  const grid = useRef(/** @type {HTMLDivElement | null} */ (null));

  useEffect(() => {
    if (!open) return;
    search.current?.focus();
    if (groups) return;
    loadSet(document.documentElement.lang || "en").then(
      (g) => setGroups(g),
      () => setFailed(true),
    );
  }, [open]);
  useEffect(() => setActive(0), [group, query]);

  const q = fold(query.trim());
  /** @type {Array<[string, string, string]>} */
  let shown = [];
  if (groups && q) {
    for (const g of groups) for (const e of g.emoji) if (shown.length < MATCHES_MAX && e[2].includes(q)) shown.push(e);
  } else if (groups) shown = groups[group]?.emoji ?? [];
  const at = Math.min(active, Math.max(0, shown.length - 1));

  const close = (refocus = true) => {
    setOpen(false);
    setQuery("");
    if (refocus) button.current?.focus();
  };
  /** @param {string} emoji */
  const pick = (emoji) => {
    setOpen(false);
    setQuery("");
    onPick(emoji);
  };
  /** @param {number} i */
  const focusCell = (i) => {
    const next = Math.max(0, Math.min(shown.length - 1, i));
    setActive(next);
    // The cells are on the page already: focus moves at once, so the next key press lands on it.
    /** @type {HTMLElement | null | undefined} */ (grid.current?.querySelector(`[data-index="${next}"]`))?.focus();
  };
  /** @param {KeyboardEvent} e */
  const onGridKey = (e) => {
    const moves = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    const by = /** @type {Record<string, number>} */ (moves)[e.key];
    if (by !== undefined) {
      e.preventDefault();
      if (e.key === "ArrowUp" && at < COLUMNS) search.current?.focus();
      else focusCell(at + by);
    } else if (e.key === "Home") {
      e.preventDefault();
      focusCell(0);
    } else if (e.key === "End") {
      e.preventDefault();
      focusCell(shown.length - 1);
    }
  };
  /** @param {KeyboardEvent} e */
  const onPanelKey = (e) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    e.stopPropagation();
    close();
  };
  /** Focus leaving the button and the picker (a click elsewhere) closes it. @param {FocusEvent} e */
  const onFocusOut = (e) => {
    const next = /** @type {Node | null} */ (e.relatedTarget);
    if (open && (!next || !(/** @type {HTMLElement} */ (e.currentTarget).contains(next)))) close(false);
  };
  const groupName = (/** @type {string} */ key) => t(`emoji.group.${key}`);

  return html`<div class="emoji-wrap" onFocusOut=${onFocusOut}>
    <button type="button" class="icon-btn" id="emoji-button" ref=${button} aria-label=${t("emoji.button")} title=${t("emoji.button")}
      aria-haspopup="dialog" aria-expanded=${open ? "true" : "false"} aria-controls=${open ? "emoji-panel" : undefined}
      onClick=${() => (open ? close() : setOpen(true))}><${Icon} name="smile" /></button>
    ${
      open
        ? html`<div class="emoji-panel" id="emoji-panel" role="dialog" aria-label=${t("emoji.title")} onKeyDown=${onPanelKey}>
      <input ref=${search} type="search" class="emoji-search" aria-label=${t("emoji.search")} placeholder=${t("emoji.search")} value=${query}
        aria-describedby="emoji-help"
        onInput=${(/** @type {any} */ e) => setQuery(e.currentTarget.value)}
        onKeyDown=${(/** @type {KeyboardEvent} */ e) => {
          if (e.key === "ArrowDown" && shown.length) {
            e.preventDefault();
            focusCell(0);
          } else if (e.key === "Enter" && shown.length) {
            e.preventDefault();
            pick(shown[at][0]);
          }
        }} />
      <span id="emoji-help" class="visually-hidden">${t("emoji.help")}</span>
      ${
        groups && !q
          ? html`<div class="emoji-groups" role="group" aria-label=${t("emoji.groups")}>
        ${groups.map(
          (
            g,
            i,
          ) => html`<button key=${g.key} type="button" class="emoji-group" aria-pressed=${i === group ? "true" : "false"} title=${groupName(g.key)}
            aria-label=${groupName(g.key)} onClick=${() => setGroup(i)}><span aria-hidden="true">${g.emoji[0]?.[0]}</span></button>`,
        )}
      </div>`
          : null
      }
      ${
        failed
          ? html`<p class="emoji-note" role="alert">${t("emoji.failed")}</p>`
          : !groups
            ? html`<p class="emoji-note" aria-busy="true">${t("emoji.loading")}</p>`
            : shown.length
              ? html`<div class="emoji-grid" ref=${grid} role="group" aria-label=${q ? t("emoji.results", { count: shown.length }) : groupName(groups[group]?.key ?? "")} onKeyDown=${onGridKey}>
        ${shown.map(
          (
            e,
            i,
          ) => html`<button key=${e[0]} type="button" class="emoji-cell" data-index=${i} tabIndex=${i === at ? 0 : -1} aria-label=${e[1]} title=${e[1]}
            onFocus=${() => setActive(i)} onClick=${() => pick(e[0])}>${e[0]}</button>`,
        )}
      </div>`
              : html`<p class="emoji-note" role="status">${t("emoji.none")}</p>`
      }
    </div>`
        : null
    }
  </div>`;
}
