// @ts-check
import { t } from "../i18n.js";
import { html, useRef, useState } from "../lib/preact.js";
import { bytes, clock, safeUrl } from "../format.js";
import { PICTURE_MIMES } from "../uploads.js";
import { artifactIcon } from "./artifact-list.js";
import { Lightbox } from "./lightbox.js";
import { AudioPlayer } from "./audio-player.js";
import { TokenText } from "./token-text.js";

/** @typedef {import('../types.js').ArtifactRef} ArtifactRef */

/** The box a thumbnail takes in the bubble: the picture's own shape, at most 280 × 320. */
const THUMB = { w: 280, h: 320 };

/**
 * The thumbnail's size, from the width and height the server read from the picture's header at
 * upload; null for anything not to be shown inline (no size recorded, SVG, any other type).
 * @param {ArtifactRef} a @returns {{ width: number, height: number } | null}
 */
function thumbSize(a) {
  const { width: w, height: h } = a;
  if (!a.mime_type || !PICTURE_MIMES.includes(a.mime_type) || !w || !h) return null;
  const scale = Math.min(1, THUMB.w / w, THUMB.h / h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

/**
 * A file or link in the chat: a picture as a thumbnail that opens the lightbox, audio (a voice
 * note, an uploaded recording) as a player, anything else as icon, name, size and Download; the
 * caption typed with it below.
 * @param {{ artifact: ArtifactRef, ts: string, mine: boolean, sender?: string, caption?: string }} props
 */
export function ArtifactMessage({ artifact, ts, mine, sender, caption }) {
  // Which opening of the lightbox is on screen (0: none). A dialog's close event comes as a task
  // of its own, so a quick Escape then Enter can open the picture before the closed one has said
  // so: each opening is a new lightbox, and a close speaks only for its own.
  const [shown, setShown] = useState(0);
  const openings = useRef(0);
  const url = safeUrl(artifact.url);
  const thumb = url ? thumbSize(artifact) : null;
  const alt = caption ? `${artifact.title}: ${caption}` : artifact.title;
  return html`<div class=${`msg ${mine ? "msg-out" : "msg-in"}`}>
    <div class=${`bubble bubble-file${thumb ? " bubble-picture" : ""}`}>
      ${sender && !mine ? html`<span class="sender">${sender}</span>` : null}
      ${
        url && artifact.mime_type?.startsWith("audio/")
          ? html`<div class="file file-audio">
        <${AudioPlayer} src=${url} title=${artifact.title} durationMs=${artifact.duration_ms} />
        <span class="file-text"><span class="file-name">${artifact.title}</span>
          <span class="file-meta">${bytes(artifact.size_bytes)}</span></span>
        <a class="btn btn-small btn-secondary" href=${url} download=${artifact.title} aria-label=${t("file.download_named", { title: artifact.title })}>${t("file.download")}</a>
      </div>`
          : thumb && url
            ? html`<button type="button" class="picture" aria-label=${t("file.open_picture", { title: artifact.title })} onClick=${() => setShown(++openings.current)}>
        <img src=${url} alt=${alt} width=${thumb.width} height=${thumb.height} loading="lazy" decoding="async" /></button>`
            : html`<div class="file">
        <span class="file-icon" aria-hidden="true">${artifactIcon(artifact)}</span>
        <span class="file-text"><span class="file-name">${artifact.title}</span>
          <span class="file-meta">${[artifact.mime_type, bytes(artifact.size_bytes)].filter(Boolean).join(" · ")}</span></span>
        ${url ? html`<a class="btn btn-small btn-secondary" href=${url} download=${artifact.title} aria-label=${t("file.download_named", { title: artifact.title })}>${t("file.download")}</a>` : null}
      </div>`
      }
      ${caption ? html`<span class="text caption"><${TokenText} text=${caption} /></span>` : null}
      <span class="meta">${clock(ts)}</span>
    </div>
    ${
      shown && url
        ? html`<${Lightbox} key=${shown} src=${url} alt=${alt} title=${artifact.title} caption=${caption}
            onClose=${() => setShown((now) => (now === shown ? 0 : now))} />`
        : null
    }
  </div>`;
}
