// @ts-check
import { html } from "../lib/preact.js";
import { bytes } from "../format.js";
import { numberFormat, t } from "../i18n.js";

/** @typedef {import('../types.js').LocalBubble} LocalBubble */

/**
 * A file on its way up: its name, a progress bar, and Cancel until the server has it; Retry if
 * it failed (the same request again, never a second copy).
 * @param {{ bubble: LocalBubble }} props
 */
export function UploadBubble({ bubble: l }) {
  const pct = Math.round((l.progress ?? 0) * 100);
  const state =
    l.status === "waiting"
      ? t("upload.waiting")
      : l.status === "failed"
        ? t("upload.not_sent")
        : l.status === "sent" || pct >= 100
          ? t("upload.processing")
          : numberFormat({ style: "percent" }).format(pct / 100);
  return html`<div class=${`msg msg-out${l.status === "failed" ? " msg-failed" : ""}`}>
    <div class="bubble bubble-file bubble-upload">
      <div class="file">
        <span class="file-text"><span class="file-name">${l.text}</span>
          <span class="file-meta">${[bytes(l.size), state].filter(Boolean).join(" · ")}</span></span>
        ${l.cancel && l.status !== "sent" ? html`<button type="button" class="btn btn-small btn-secondary" aria-label=${t("upload.cancel_named", { name: l.text })} onClick=${l.cancel}>${t("common.cancel")}</button>` : null}
      </div>
      <progress class="upload-progress" max="100" value=${pct} aria-label=${t("upload.sending_named", { name: l.text })}>${state}</progress>
    </div>
    ${l.status === "failed" ? html`<button type="button" class="retry" onClick=${l.retry}>${t("upload.retry")}</button>` : null}
  </div>`;
}
