// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { dismissNotificationOffer, shouldOfferNotifications, turnOnNotifications } from "../notify.js";

/** The one place the browser's notification permission is asked for: a clear offer the person accepts or puts off. */
export function NotifyBanner() {
  if (!shouldOfferNotifications()) return null;
  return html`<div class="notify-banner" role="region" aria-label=${t("notify.label")}>
    <span>${t("notify.offer")}</span>
    <span class="notify-actions">
      <button type="button" class="btn btn-primary btn-small" onClick=${() => void turnOnNotifications()}>${t("notify.turn_on")}</button>
      <button type="button" class="btn btn-small" onClick=${dismissNotificationOffer}>${t("notify.not_now")}</button>
    </span>
  </div>`;
}
