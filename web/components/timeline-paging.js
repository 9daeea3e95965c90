// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useLayoutEffect, useRef, useState } from "../lib/preact.js";
import { loadOlder, oldestSeq, olderState } from "../history.js";
import { jumpDone, jumpTarget } from "../jump.js";
import { toast } from "../store.js";
import { forgetUnread, unreadDivider } from "../unread.js";

/** Start loading the previous page this close to the top (px). */
const NEAR_TOP = 400;

/**
 * History paging, opening at a found message and the "New messages" divider for one timeline.
 * The timeline is windowed (only rows near the view are drawn): `reveal` draws a row by key and
 * answers its element once drawn, `tallerThanView` says whether the rows from one to the end do
 * not fit. The timeline keeps what the reader sees in place when an older page comes in above.
 * @param {{ stick: { current: boolean }, cid: string,
 *   items: import('../types.js').TimelineItem[], loaded: boolean,
 *   reveal: (key: string, align: 'start' | 'center') => HTMLElement | null, tallerThanView: (key: string) => boolean }} o
 */
export function useTimelinePaging({ stick, cid, items, loaded, reveal, tallerThanView }) {
  const [found, setFound] = useState(/** @type {string | null} */ (null));
  // A row asked for by `reveal` is drawn on a later frame: each frame waited redraws.
  const [waited, setWaited] = useState(0);
  const waitingFor = useRef({ n: 0, until: 0 });
  const older = olderState(cid);

  /** @param {number} [limit] */
  const more = async (limit) => {
    if (!olderState(cid).more || olderState(cid).loading) return;
    stick.current = false;
    await loadOlder(cid, limit);
  };

  /** Tries again on the next frame, for up to 15 s per jump, for a row `reveal` has scrolled to. @param {number} n the jump */
  const again = (n) => {
    if (waitingFor.current.n !== n) waitingFor.current = { n, until: Date.now() + 15_000 };
    if (Date.now() < waitingFor.current.until) requestAnimationFrame(() => setWaited((k) => k + 1));
  };

  /** @param {HTMLDivElement} el */
  const onScroll = (el) => {
    if (el.scrollTop < NEAR_TOP && el.scrollHeight > el.clientHeight) void more();
  };

  // A message found by search: page back until it is loaded, then bring it into view.
  const jump = jumpTarget(cid);
  useEffect(() => {
    if (!jump || !loaded) return;
    const loadedHere = items.some((i) => i.event_id === jump.event_id);
    const el = loadedHere ? reveal(jump.event_id, "center") : null;
    if (loadedHere) stick.current = false;
    if (el instanceof HTMLElement) {
      // The reader is where they asked to be: the "New messages" divider does not pull them away.
      shownDivider.current = true;
      jumpDone(jump.n);
      stick.current = false;
      el.scrollIntoView({ block: "center" });
      el.tabIndex = -1;
      el.focus({ preventScroll: true });
      setFound(jump.event_id);
      return;
    }
    if (loadedHere) return again(jump.n);
    if (older.loading) return;
    // Far back: one larger page (the distance in tenant positions bounds the items between).
    if (older.more && oldestSeq(cid) > jump.seq) void more(Math.max(200, oldestSeq(cid) - jump.seq + 1));
    else {
      jumpDone(jump.n);
      toast(t("timeline.gone"));
    }
  }, [jump?.n, items.length, loaded, older.loading, waited]);

  useEffect(() => {
    if (!found) return;
    const timer = setTimeout(() => setFound(null), 4000);
    return () => clearTimeout(timer);
  }, [found]);

  // The divider is where the reader left off; it goes when they leave the conversation.
  const divider = unreadDivider(cid);
  const shownDivider = useRef(false);
  const dividerWait = useRef(0);
  useLayoutEffect(() => {
    if (!divider || shownDivider.current || jump || !items.some((i) => i.event_id === divider)) return;
    // Only when the unread messages do not all fit: otherwise the reader is at the bottom anyway.
    if (!tallerThanView("unread-divider")) {
      shownDivider.current = true;
      return;
    }
    stick.current = false;
    const row = reveal("unread-divider", "start");
    if (!row) {
      if (dividerWait.current++ < 30) requestAnimationFrame(() => setWaited((n) => n + 1));
      return;
    }
    shownDivider.current = true;
    row.scrollIntoView({ block: "start" });
  }, [divider, items.length, waited]);
  useEffect(() => () => forgetUnread(cid), [cid]);

  const top = !loaded
    ? null
    : older.more || older.loading
      ? html`<div class="history-more"><button type="button" class="link-btn" disabled=${older.loading} onClick=${() => void more()}>
          ${older.loading ? t("timeline.loading_earlier") : t("timeline.load_earlier")}</button></div>`
      : older.known && items.length > 0
        ? html`<div class="history-start" role="note">${t("timeline.beginning")}</div>`
        : null;

  return { onScroll, top, found, divider };
}
