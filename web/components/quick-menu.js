// @ts-check
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { t } from "../i18n.js";

/** @typedef {import('../types.js').JobHead} JobHead */

/**
 * Each template's label is the person's language; the text it starts the message with is the one
 * the built-in rules planner reads (English), so a template always starts a job it understands.
 */
const TEMPLATES = [
  { key: "quickMenu.schedule", text: "Can you schedule a 30-min call with " },
  { key: "quickMenu.invoice", text: "Please send invoice " },
  { key: "quickMenu.followUp", text: "Can you follow up with " },
];

/**
 * The composer's Quick actions: a menu button in the WAI-ARIA Authoring Practices pattern.
 * Enter, Space or ArrowDown on the button open the menu on its first item (ArrowUp: the last);
 * ArrowUp/ArrowDown move (wrapping), Home/End jump, a letter moves to the next item starting
 * with it; Escape closes and puts focus back on the button; Tab closes and moves on; focus
 * leaving the menu closes it. The menu follows the button in the DOM, so Tab from an item moves
 * on to what comes after the button.
 * @param {{ job?: JobHead | undefined, pinned: boolean, onPin: () => void, onTemplate: (text: string) => void, onOpenJob: (jobId: string) => void }} props
 */
export function QuickMenu({ job, pinned, onPin, onTemplate, onOpenJob }) {
  const [open, setOpen] = useState(false);
  /** Which item to focus once the menu is drawn: "first" or "last". */
  const [focusOn, setFocusOn] = useState(/** @type {"first" | "last" | null} */ (null));
  const button = useRef(/** @type {HTMLButtonElement | null} */ (null));
  const menu = useRef(/** @type {HTMLDivElement | null} */ (null));

  const items = () => /** @type {HTMLElement[]} */ ([...(menu.current?.querySelectorAll('[role="menuitem"]') ?? [])]);
  useEffect(() => {
    if (!open || !focusOn) return;
    const all = items();
    (focusOn === "first" ? all[0] : all.at(-1))?.focus();
    setFocusOn(null);
  }, [open, focusOn]);

  /** @param {"first" | "last"} where */
  const openAt = (where) => {
    setOpen(true);
    setFocusOn(where);
  };
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  /** Runs an item's action with the menu closed (the action decides where focus goes next). @param {() => void} act */
  const choose = (act) => () => {
    setOpen(false);
    act();
  };

  /** @param {KeyboardEvent} e */
  const onButtonKey = (e) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      openAt(e.key === "ArrowDown" ? "first" : "last");
    }
  };
  /** @param {KeyboardEvent} e */
  const onMenuKey = (e) => {
    const all = items();
    const at = all.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    /** @param {number} i */
    const go = (i) => {
      e.preventDefault();
      all[(i + all.length) % all.length]?.focus();
    };
    if (e.key === "ArrowDown") go(at + 1);
    else if (e.key === "ArrowUp") go(at - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(all.length - 1);
    else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === "Tab") close(false);
    else if (e.key.length === 1 && /\S/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // Type-ahead: the next item (after this one, wrapping) whose text starts with the letter.
      const ch = e.key.toLocaleLowerCase();
      for (let step = 1; step <= all.length; step++) {
        const i = (at + step) % all.length;
        if ((all[i]?.textContent ?? "").trim().toLocaleLowerCase().startsWith(ch)) {
          go(i);
          break;
        }
      }
    }
  };
  /** Focus leaving the button and the menu (a click elsewhere) closes it. @param {FocusEvent} e */
  const onFocusOut = (e) => {
    const next = /** @type {Node | null} */ (e.relatedTarget);
    const wrap = /** @type {HTMLElement} */ (e.currentTarget);
    if (open && (!next || !wrap.contains(next))) setOpen(false);
  };

  const item = (/** @type {string} */ label, /** @type {() => void} */ act) =>
    html`<button key=${label} type="button" role="menuitem" tabIndex="-1" onClick=${choose(act)}>${label}</button>`;

  return html`<div class="quick-wrap" onFocusOut=${onFocusOut}>
    <button type="button" class="icon-btn" id="quick-menu-button" ref=${button} aria-label=${t("quickMenu.button")} title=${t("quickMenu.button")}
      aria-haspopup="menu" aria-expanded=${open ? "true" : "false"} aria-controls=${open ? "quick-menu" : undefined}
      onKeyDown=${onButtonKey} onClick=${() => (open ? close() : openAt("first"))}><${Icon} name="bolt" /></button>
    ${
      open
        ? html`<div class="quick-menu" id="quick-menu" role="menu" aria-labelledby="quick-menu-button" ref=${menu} onKeyDown=${onMenuKey}>
      <div role="group" aria-label=${t("quickMenu.startJob")}>
        <span class="quick-title" aria-hidden="true">${t("quickMenu.startJob")}</span>
        ${TEMPLATES.map((x) => item(t(x.key), () => onTemplate(x.text)))}
      </div>
      ${
        job
          ? html`<div role="group" aria-label=${t("quickMenu.currentJob")}>
        <span class="quick-title" aria-hidden="true">${t("quickMenu.currentJob")}</span>
        ${item(t("quickMenu.openJob", { title: job.title ?? job.job_id }), () => onOpenJob(job.job_id))}
        ${item(pinned ? t("quickMenu.unpin") : t("quickMenu.pin"), onPin)}
      </div>`
          : null
      }
    </div>`
        : null
    }
  </div>`;
}
