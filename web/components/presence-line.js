// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { listTime } from "../format.js";

/** @typedef {import('../types.js').Presence} Presence */

/**
 * The seed's presence mapping: green Available, spinner "Working on …", amber "Needs your
 * input", grey Offline.
 * @param {{ presence?: Presence }} props
 */
export function PresenceLine({ presence }) {
  const state = presence?.state ?? "offline";
  if (state === "working") {
    const what = presence?.job_title ?? presence?.detail?.replace(/^Working on\s*/i, "") ?? t("presence.a_job");
    return html`<span class="presence presence-working"><span class="spinner" aria-hidden="true"></span>${t("presence.working_on", { what })}</span>`;
  }
  if (state === "waiting_on_you")
    return html`<span class="presence presence-waiting"><span class="dot"></span>${t("presence.needs_input")}</span>`;
  if (state === "available")
    return html`<span class="presence presence-available"><span class="dot"></span>${t("presence.available")}</span>`;
  return html`<span class="presence presence-offline"><span class="dot"></span>${t("presence.offline")}</span>`;
}

/**
 * A person's presence from their open pages: Online, Away, or "Last seen 14:12" (yesterday, a
 * weekday or a date when longer ago); their custom status after it, when they set one.
 * @param {{ presence?: Presence }} props
 */
export function PersonPresence({ presence }) {
  const c = presence?.connection;
  const words =
    c === "online"
      ? t("presence.online")
      : c === "away"
        ? t("presence.away")
        : presence?.last_seen_at
          ? t("presence.last_seen", { when: listTime(presence.last_seen_at) })
          : t("presence.offline");
  return html`<span class=${`presence presence-${c === "online" ? "available" : c === "away" ? "waiting" : "offline"}`}><span class="dot"></span>${words}</span>`;
}
