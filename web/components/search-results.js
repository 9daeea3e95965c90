// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { api } from "../api.js";
import { clock, dayLabel } from "../format.js";
import { openAt } from "../jump.js";
import { openThread } from "../threads.js";
import { getState } from "../store.js";

/**
 * A hit's conversation as the list names it for me (a direct chat after the other person),
 * the stored title otherwise. @param {SearchHit} h
 */
const titleOf = (h) =>
  getState().conversations.find((c) => c.conversation_id === h.conversation_id)?.title ?? h.conversation_title;

/** Wait this long after the last keystroke before asking the server. */
const DEBOUNCE_MS = 250;
const MIN_CHARS = 2;

/** @typedef {import('../types.js').SearchHit} SearchHit */

/**
 * Messages found for what is typed in the sidebar's search box: newest first, the words found
 * marked (offsets from the server, rendered as text nodes). Arrow keys move between results,
 * Enter opens one at its place in the conversation, Escape goes back to the box.
 * @param {{ q: string, input: { current: HTMLInputElement | null } }} props
 */
export function SearchResults({ q, input }) {
  const needle = q.trim();
  const [state, setState] = useState(
    /** @type {{ q: string, items: SearchHit[], next: string | null, error: string | null, loading: boolean }} */ ({
      q: "",
      items: [],
      next: null,
      error: null,
      loading: false,
    }),
  );
  const list = useRef(/** @type {HTMLUListElement | null} */ (null));

  useEffect(() => {
    if (needle.length < MIN_CHARS) return;
    let live = true;
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, loading: true }));
      api.search(needle).then(
        (r) => live && setState({ q: needle, items: r.items, next: r.next_cursor, error: null, loading: false }),
        (e) =>
          live &&
          setState({ q: needle, items: [], next: null, error: e?.message ?? t("search.failed"), loading: false }),
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [needle]);

  if (needle.length < MIN_CHARS) return null;
  const more = async () => {
    if (!state.next) return;
    const r = await api.search(state.q, { before: state.next });
    setState((s) => ({ ...s, items: [...s.items, ...r.items], next: r.next_cursor }));
  };
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    const buttons = [...(list.current?.querySelectorAll("button.search-hit") ?? [])];
    const i = buttons.indexOf(/** @type {any} */ (document.activeElement));
    if (e.key === "ArrowDown" && i < buttons.length - 1) {
      e.preventDefault();
      /** @type {HTMLElement} */ (buttons[i + 1]).focus();
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      if (i > 0) /** @type {HTMLElement} */ (buttons[i - 1]).focus();
      else input.current?.focus();
    } else if (e.key === "Escape") {
      e.preventDefault();
      input.current?.focus();
    }
  };
  const stale = state.q !== needle;
  return html`<section class="search-results" aria-label=${t("search.found_label")}>
    <h2 class="search-title">${t("search.title")}</h2>
    <p class="visually-hidden" role="status">${stale || state.loading ? "" : t("search.count", { count: state.items.length, more: state.next ? "yes" : "no" })}</p>
    ${state.error ? html`<p class="search-empty">${state.error}</p>` : null}
    ${!stale && !state.error && state.items.length === 0 && !state.loading ? html`<p class="search-empty">${t("search.none")}</p>` : null}
    <ul ref=${list} class="search-list" onKeyDown=${onKey}>
      ${state.items.map(
        (h) => html`<li key=${h.event_id}>
        <button type="button" class="search-hit" data-event-id=${h.event_id} onClick=${() => (h.thread_root_message_id ? openThread(h.conversation_id, h.thread_root_message_id) : openAt(h.conversation_id, h.event_id, h.cursor))}>
          <span class="search-hit-head"><span class="search-hit-conv">${titleOf(h)}</span>
            <span class="search-hit-when">${dayLabel(h.ts)} ${clock(h.ts)}</span></span>
          <span class="search-hit-text"><span class="search-hit-author">${h.author.display_name}: </span>${marked(h.snippet)}</span>
        </button></li>`,
      )}
    </ul>
    ${state.next && !stale ? html`<button type="button" class="link-btn search-more" onClick=${() => void more()}>${t("search.more")}</button>` : null}
  </section>`;
}

/** The snippet with its highlight ranges as <mark>, everything as text nodes. @param {{ text: string, highlights: Array<[number, number]> }} s */
function marked(s) {
  /** @type {any[]} */
  const out = [];
  let at = 0;
  for (const [a, b] of s.highlights) {
    if (a < at || b > s.text.length) continue;
    if (a > at) out.push(s.text.slice(at, a));
    out.push(html`<mark>${s.text.slice(a, b)}</mark>`);
    at = b;
  }
  if (at < s.text.length) out.push(s.text.slice(at));
  return out;
}
