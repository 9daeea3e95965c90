// @ts-check
import { html, useState } from "../lib/preact.js";
import { setThemeChoice, themeChoice } from "../theme.js";

/** @typedef {import('../theme.js').ThemeChoice} ThemeChoice */

const CHOICES = /** @type {Array<[ThemeChoice, string]>} */ ([
  ["system", "System"],
  ["light", "Light"],
  ["dark", "Dark"],
]);

/**
 * System / Light / Dark as native radio buttons (arrow keys move between them), applied at once
 * and kept in this browser.
 */
export function ThemeSwitch() {
  const [choice, setChoice] = useState(themeChoice());
  return html`<fieldset class="form-field theme-switch">
    <legend>Theme</legend>
    <div class="theme-options">
      ${CHOICES.map(
        ([value, label]) => html`<label key=${value} class="theme-option">
          <input type="radio" name="theme" value=${value} checked=${choice === value}
            onChange=${() => {
              setThemeChoice(value);
              setChoice(value);
            }} />
          ${label}
        </label>`,
      )}
    </div>
  </fieldset>`;
}
