// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { setThemeChoice, themeChoice } from "../theme.js";

/** @typedef {import('../theme.js').ThemeChoice} ThemeChoice */

const CHOICES = /** @type {ThemeChoice[]} */ (["system", "light", "dark"]);

/**
 * System / Light / Dark as native radio buttons (arrow keys move between them), applied at once
 * and kept in this browser.
 */
export function ThemeSwitch() {
  const [choice, setChoice] = useState(themeChoice());
  return html`<fieldset class="form-field theme-switch">
    <legend>${t("theme.legend")}</legend>
    <div class="theme-options">
      ${CHOICES.map(
        (value) => html`<label key=${value} class="theme-option">
          <input type="radio" name="theme" value=${value} checked=${choice === value}
            onChange=${() => {
              setThemeChoice(value);
              setChoice(value);
            }} />
          ${t(`theme.${value}`)}
        </label>`,
      )}
    </div>
  </fieldset>`;
}
