// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { toast } from "../store.js";

/** @typedef {import('../types.js').TimelineItem} TimelineItem */

/** The host a preview's link points at, shown when the page names no site. @param {string} url */
function hostOf(url) {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

/** @param {string} cid @param {TimelineItem} it @param {string} url */
async function removePreview(cid, it, url) {
  try {
    await api.removePreview(cid, it.message.message_id, url);
  } catch (e) {
    toast(e instanceof ApiError ? e.message : t("messages.unreachable"));
  }
}

/**
 * The previews of a message's links, as the server fetched them (title, description, site; all
 * plain text, no picture), each a link to its page. The message's author has a × to take one off
 * (for everyone). The change arrives on the stream as a `timeline.update`.
 * @param {{ cid: string, it: TimelineItem, mine: boolean }} props
 */
export function LinkPreviews({ cid, it, mine }) {
  const list = (it.previews ?? []).filter((p) => p.url.startsWith("https://") || p.url.startsWith("http://"));
  if (!list.length) return null;
  return html`<div class="link-previews">
    ${list.map((p) => {
      const label = p.title ?? hostOf(p.url);
      return html`<div class="link-preview" key=${p.url} data-preview-url=${p.url}>
        <span class="link-preview-site">${p.site_name ?? hostOf(p.url)}</span>
        <a class="link-preview-title" href=${p.url} target="_blank" rel="noopener noreferrer nofollow">${label}</a>
        ${p.description ? html`<span class="link-preview-description">${p.description}</span>` : null}
        ${
          mine
            ? html`<button type="button" class="link-preview-remove" aria-label=${t("previews.remove", { title: label })}
                title=${t("previews.remove", { title: label })} onClick=${() => removePreview(cid, it, p.url)}>×</button>`
            : null
        }
      </div>`;
    })}
  </div>`;
}
