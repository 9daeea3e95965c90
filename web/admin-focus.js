// @ts-check
// Admin screens reload their lists after each act, and the button that was pressed is often
// gone (Deactivate becomes Reactivate, a revoked token's row leaves). Focus then goes on purpose
// to the control that replaced it, never to <body>.

const FRAMES = 60;

/**
 * Focuses the first element matching one of `selectors` (in order of preference) as soon as it
 * is drawn, trying for about a second. Given `began` (what had focus when the act began), focus
 * moves only if it is still there or was lost: a person who has gone on to another control while
 * the list reloaded is not pulled back.
 * @param {string[]} selectors @param {Element | null} [began]
 */
export function focusWhenDrawn(selectors, began) {
  let n = 0;
  const attempt = () => {
    const now = document.activeElement;
    if (began !== undefined && now && now !== began && now !== document.body && now.isConnected) return;
    for (const sel of selectors) {
      const el = /** @type {HTMLElement | null} */ (document.querySelector(sel));
      if (el && !el.closest("[inert]")) {
        el.focus();
        return;
      }
    }
    if (++n < FRAMES) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/** A CSS attribute selector value, quoted. @param {string} v */
export const attr = (v) => JSON.stringify(v);
