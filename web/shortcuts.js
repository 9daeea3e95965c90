// @ts-check
import { getState, setState } from "./store.js";

/** Whether a key typed here is text for a field (then `?` is a question mark, not a shortcut). @param {EventTarget | null} el */
const typingIn = (el) =>
  el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

/**
 * Keys that work on every signed-in screen: Ctrl+K or ⌘K opens the conversation switcher (also
 * from inside the message box), and `?` outside a text field shows the list of shortcuts. Both
 * wait while another dialog is open.
 */
export function startShortcuts() {
  document.addEventListener("keydown", (e) => {
    const s = getState();
    if (!s.me || s.dialog || e.defaultPrevented || e.isComposing) return;
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "k") {
      e.preventDefault();
      setState({ dialog: { type: "switcher" } });
      return;
    }
    if (e.key === "?" && !e.ctrlKey && !e.metaKey && !e.altKey && !typingIn(e.target)) {
      e.preventDefault();
      setState({ dialog: { type: "shortcuts" } });
    }
  });
}
