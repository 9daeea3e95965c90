// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { copyText } from "../actions.js";

/**
 * A one-time link for another device, as text and as a QR code (an SVG image made by the
 * server), with how long it still works.
 * @param {{ link: { url: string, expires_at: string, qr_data_url: string }, onDone: () => void }} props
 */
export function DeviceLink({ link, onDone }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, Math.round((Date.parse(link.expires_at) - now) / 1000));
  const mmss = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  return html`<div class="device-link">
    <p class="small">${t("device.explain")}</p>
    <img class="device-link-qr" src=${link.qr_data_url} width="200" height="200" alt=${t("device.qr_alt")} />
    <div class="device-link-url">
      <label for="device-link-url" class="small">${t("device.one_time")}</label>
      <input id="device-link-url" readonly value=${link.url} onFocus=${(/** @type {any} */ e) => e.currentTarget.select()} />
    </div>
    <p class="small muted" role="status">${left > 0 ? t("device.works_for", { left: mmss }) : t("device.expired")}</p>
    <div class="modal-actions">
      <button type="button" class="btn btn-ghost" onClick=${onDone}>${t("common.done")}</button>
      <button type="button" class="btn" disabled=${left === 0} onClick=${() => copyText(link.url)}>${t("common.copy_link")}</button>
    </div>
  </div>`;
}
