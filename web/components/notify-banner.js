// @ts-check
import { html } from "../lib/preact.js";
import { dismissNotificationOffer, shouldOfferNotifications, turnOnNotifications } from "../notify.js";

/** The one place the browser's notification permission is asked for: a clear offer the person accepts or puts off. */
export function NotifyBanner() {
  if (!shouldOfferNotifications()) return null;
  return html`<div class="notify-banner" role="region" aria-label="Notifications">
    <span>Get notified of messages and jobs waiting on you</span>
    <span class="notify-actions">
      <button type="button" class="btn btn-primary btn-small" onClick=${() => void turnOnNotifications()}>Turn on</button>
      <button type="button" class="btn btn-small" onClick=${dismissNotificationOffer}>Not now</button>
    </span>
  </div>`;
}
