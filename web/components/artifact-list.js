// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { bytes, safeUrl } from "../format.js";

/** @typedef {import('../types.js').ArtifactRef} ArtifactRef */

/** @param {ArtifactRef} a */
export function artifactIcon(a) {
  /** @type {import('./icon.js').IconName} */
  const name =
    a.mime_type === "text/calendar" || /\.ics$/i.test(a.title) || /\.ics(\?|$)/i.test(a.url ?? "")
      ? "calendar"
      : a.kind === "link"
        ? "link"
        : a.kind === "record"
          ? "record"
          : "file";
  return html`<${Icon} name=${name} size=${22} />`;
}

/** Each artifact with its icon, title, size and Open / Download. @param {{ artifacts: ArtifactRef[] }} props */
export function ArtifactList({ artifacts }) {
  return html`<ul class="artifacts">${artifacts.map((a) => {
    const url = safeUrl(a.url);
    const isFile = a.kind === "file" || !!a.mime_type;
    return html`<li key=${a.artifact_id} class="artifact">
      <span class="artifact-icon" aria-hidden="true">${artifactIcon(a)}</span>
      <span class="artifact-text"><span class="artifact-title">${a.title}</span>
        ${a.size_bytes != null || a.mime_type ? html`<span class="artifact-meta">${[a.mime_type === "text/calendar" ? t("file.calendar_invite") : a.mime_type, bytes(a.size_bytes)].filter(Boolean).join(" · ")}</span>` : null}</span>
      ${
        url
          ? html`<span class="artifact-actions">
        <a class="btn btn-small btn-secondary" href=${url} target="_blank" rel="noopener noreferrer">${t("file.open")}</a>
        ${isFile ? html`<a class="btn btn-small btn-secondary" href=${url} download=${a.title}>${t("file.download")}</a>` : null}
      </span>`
          : null
      }
    </li>`;
  })}</ul>`;
}
