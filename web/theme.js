// @ts-check
// The person's theme choice. web/theme-boot.js applies it (before the first paint and on every
// change); this module only reads and stores it.

/** @typedef {'system' | 'light' | 'dark'} ThemeChoice */

/** The localStorage key web/theme-boot.js reads. */
const KEY = "logline.theme";

/** @returns {ThemeChoice} */
export function themeChoice() {
  const c = document.documentElement.dataset.themeChoice;
  return c === "light" || c === "dark" ? c : "system";
}

/** Stores the choice (System removes it) and applies it at once. @param {ThemeChoice} choice */
export function setThemeChoice(choice) {
  try {
    if (choice === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Without storage the choice lasts until the page is reloaded.
    document.documentElement.dataset.themeChoice = choice;
  }
  document.dispatchEvent(new Event("logline:theme"));
}
