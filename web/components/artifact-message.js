// @ts-check
import { html } from "../lib/preact.js";
import { bytes, clock, safeUrl } from "../format.js";
import { artifactIcon } from "./artifact-list.js";

/** @typedef {import('../types.js').ArtifactRef} ArtifactRef */

/** A file or link in the chat: icon, name, size, Download. @param {{ artifact: ArtifactRef, ts: string, mine: boolean, sender?: string }} props */
export function ArtifactMessage({ artifact, ts, mine, sender }) {
  const url = safeUrl(artifact.url);
  return html`<div class=${`msg ${mine ? "msg-out" : "msg-in"}`}>
    <div class="bubble bubble-file">
      ${sender && !mine ? html`<span class="sender">${sender}</span>` : null}
      <div class="file">
        <span class="file-icon" aria-hidden="true">${artifactIcon(artifact)}</span>
        <span class="file-text"><span class="file-name">${artifact.title}</span>
          <span class="file-meta">${[artifact.mime_type, bytes(artifact.size_bytes)].filter(Boolean).join(" · ")}</span></span>
        ${url ? html`<a class="btn btn-small btn-secondary" href=${url} download=${artifact.title} aria-label=${`Download ${artifact.title}`}>Download</a>` : null}
      </div>
      <span class="meta">${clock(ts)}</span>
    </div>
  </div>`;
}
