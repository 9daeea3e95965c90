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
 * Prepending keeps what the reader sees in place: the distance from the bottom is kept.
 * @param {{ box: { current: HTMLDivElement | null }, stick: { current: boolean }, cid: string,
 *   items: import('../types.js').TimelineItem[], loaded: boolean }} o
 */
export function useTimelinePaging({ box, stick, cid, items, loaded }) {
  const anchor = useRef(/** @type {{ fromBottom: number, firstId: string | undefined } | null} */ (null));
  const [found, setFound] = useState(/** @type {string | null} */ (null));
  const firstId = items[0]?.event_id;
  const older = olderState(cid);

  useLayoutEffect(() => {
    const el = box.current;
    const a = anchor.current;
    if (!el || !a || a.firstId === firstId) return;
    el.scrollTop = el.scrollHeight - a.fromBottom;
    anchor.current = null;
  }, [firstId]);

  /** @param {number} [limit] */
  const more = async (limit) => {
    const el = box.current;
    if (!olderState(cid).more || olderState(cid).loading) return;
    if (el) anchor.current = { fromBottom: el.scrollHeight - el.scrollTop, firstId };
    stick.current = false;
    if (!(await loadOlder(cid, limit))) anchor.current = null;
  };

  /** @param {HTMLDivElement} el */
  const onScroll = (el) => {
    if (el.scrollTop < NEAR_TOP && el.scrollHeight > el.clientHeight) void more();
  };

  // A message found by search: page back until it is loaded, then bring it into view.
  const jump = jumpTarget(cid);
  useEffect(() => {
    if (!jump || !loaded) return;
    const el = box.current?.querySelector(`[data-event-id="${CSS.escape(jump.event_id)}"]`);
    if (el instanceof HTMLElement) {
      jumpDone(jump.n);
      stick.current = false;
      el.scrollIntoView({ block: "center" });
      el.tabIndex = -1;
      el.focus({ preventScroll: true });
      setFound(jump.event_id);
      return;
    }
    if (older.loading) return;
    // Far back: one larger page (the distance in tenant positions bounds the items between).
    if (older.more && oldestSeq(cid) > jump.seq) void more(Math.max(200, oldestSeq(cid) - jump.seq + 1));
    else {
      jumpDone(jump.n);
      toast(t("timeline.gone"));
    }
  }, [jump?.n, items.length, loaded, older.loading]);

  useEffect(() => {
    if (!found) return;
    const timer = setTimeout(() => setFound(null), 4000);
    return () => clearTimeout(timer);
  }, [found]);

  // The divider is where the reader left off; it goes when they leave the conversation.
  const divider = unreadDivider(cid);
  const shownDivider = useRef(false);
  useLayoutEffect(() => {
    if (!divider || shownDivider.current || jump) return;
    const el = box.current?.querySelector(".unread-divider");
    if (!(el instanceof HTMLElement)) return;
    shownDivider.current = true;
    // Only when the unread messages do not all fit: otherwise the reader is at the bottom anyway.
    const view = box.current;
    if (view && view.scrollHeight - el.offsetTop > view.clientHeight) {
      stick.current = false;
      el.scrollIntoView({ block: "start" });
    }
  }, [divider, items.length]);
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
