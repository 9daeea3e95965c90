// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { avatarHue, initials } from "../format.js";
import { getState } from "../store.js";

/** Only pictures this server stores (its own route) are shown; any other address stays initials. */
const OWN_PICTURE = /^\/v1\/avatars\/[A-Za-z0-9_-]+$/;

/** The initials an avatar shows, or null when it shows the person's picture. @param {string} name @param {string} [id] */
export function shownInitials(name, id) {
  const url = id ? getState().entities[id]?.avatar_url : undefined;
  return url && OWN_PICTURE.test(url) ? null : initials(name);
}

/**
 * A person's picture when they set one (live: read from the entities the stream keeps current),
 * otherwise initials in a coloured circle; agents get a small badge so they read as coworkers,
 * not users.
 * @param {{ name: string, id?: string, agent?: boolean, size?: "xs"|"sm"|"md" }} props
 */
export function Avatar({ name, id, agent, size = "md" }) {
  const url = id ? getState().entities[id]?.avatar_url : undefined;
  const picture = url && OWN_PICTURE.test(url) ? url : null;
  return html`<span class=${`avatar avatar-${size} hue-${avatarHue(id ?? name)}${picture ? " avatar-picture" : ""}`} aria-hidden="true" data-avatar=${picture ? "picture" : "initials"}>
    ${picture ? html`<img src=${picture} alt="" loading="lazy" decoding="async" />` : initials(name)}${agent ? html`<span class="avatar-bot" title=${t("common.agent_coworker")}>✦</span>` : null}
  </span>`;
}
