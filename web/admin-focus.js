// @ts-check
// Admin screens reload their lists after each act, and the button that was pressed is often
// gone (Deactivate becomes Reactivate, a revoked token's row leaves). Focus then goes on purpose
// to the control that replaced it, never to <body>.

const FRAMES = 60;

/**
 * Focuses the first element matching one of `selectors` (in order of preference) as soon as it
 * is drawn, trying for about a second.
 * @param {string[]} selectors
 */
export function focusWhenDrawn(selectors) {
  let n = 0;
  const attempt = () => {
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
