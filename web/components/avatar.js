// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { avatarHue, initials } from "../format.js";

/**
 * Initials in a coloured circle; agents get a small badge so they read as coworkers, not users.
 * @param {{ name: string, id?: string, agent?: boolean, size?: 'sm'|'md' }} props
 */
export function Avatar({ name, id, agent, size = "md" }) {
  return html`<span class=${`avatar avatar-${size} hue-${avatarHue(id ?? name)}`} aria-hidden="true">
    ${initials(name)}${agent ? html`<span class="avatar-bot" title=${t("common.agent_coworker")}>✦</span>` : null}
  </span>`;
}
