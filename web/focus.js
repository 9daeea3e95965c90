// @ts-check
// Where keyboard focus goes after an action on a job card. The clicked button stays focusable
// while the request is in flight (aria-disabled, never the native `disabled`, which would drop
// focus to <body>); when the job's next card arrives, focus moves to its first live button, or
// to the card itself when it has none, so the next Tab continues from where the work is.

const FOLLOW_MS = 10_000;

/** @type {{ jobId: string, fromCardId: string, until: number } | null} */
let follow = null;

/**
 * Remember that focus should follow this job to its next card.
 * @param {string} jobId @param {string} fromCardId
 */
export function followJob(jobId, fromCardId) {
  follow = { jobId, fromCardId, until: Date.now() + FOLLOW_MS };
}

/** Whether focus is still where the person left it: on the old card, or lost to <body>. @param {string} fromCardId */
function focusIsIdle(fromCardId) {
  const a = document.activeElement;
  if (!a || a === document.body) return true;
  return !!a.closest(`[data-card-id="${CSS.escape(fromCardId)}"]`);
}

/**
 * A new timeline item arrived: if it is the followed job's next card, focus it once it is drawn.
 * @param {any} item
 */
export function maybeFocusCard(item) {
  const card = item?.message?.card;
  if (!follow || !card || card.job_id !== follow.jobId || card.card_id === follow.fromCardId) return;
  const f = follow;
  follow = null;
  if (Date.now() > f.until) return;
  // After the render that adds the card.
  setTimeout(() => {
    if (!focusIsIdle(f.fromCardId)) return;
    const el = /** @type {HTMLElement | null} */ (
      document.querySelector(`[data-card-id="${CSS.escape(card.card_id)}"]`)
    );
    if (!el) return;
    const live = /** @type {HTMLElement | null} */ (
      el.querySelector('.card-buttons button:not([aria-disabled="true"])')
    );
    (live ?? el).focus();
  }, 0);
}

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab inside `container` (a modal): past the last control it wraps to the first, and
 * Shift+Tab before the first wraps to the last. Returns the undo.
 * @param {HTMLElement} container
 * @returns {() => void}
 */
export function trapTab(container) {
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (e.key !== "Tab") return;
    const all = /** @type {HTMLElement[]} */ ([...container.querySelectorAll(FOCUSABLE)]).filter(
      (el) => !(/** @type {any} */ (el).disabled) && el.offsetParent !== null && !el.closest("[inert]"),
    );
    if (!all.length) return;
    const first = all[0];
    const last = all[all.length - 1];
    const a = document.activeElement;
    const outside = !a || !container.contains(a);
    if (e.shiftKey && (a === first || a === container || outside)) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && (a === last || outside)) {
      e.preventDefault();
      first?.focus();
    }
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
