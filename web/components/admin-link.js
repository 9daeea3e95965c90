// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { copyText } from "../actions.js";

/**
 * A sign-in or invite link shown once, to copy and hand to the person.
 * @param {{ label: string, url: string }} props
 */
export function AdminLink({ label, url }) {
  const full = /^https?:/.test(url) ? url : `${location.origin}${url.startsWith("/") ? "" : "/"}${url}`;
  return html`<div class="invite-link admin-link">
    <input readonly aria-label=${label} value=${full} onFocus=${(/** @type {any} */ e) => e.currentTarget.select()} />
    <button type="button" class="btn btn-secondary" onClick=${() => void copyText(full)}>${t("common.copy_link")}</button>
  </div>`;
}
