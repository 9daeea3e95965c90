// @ts-check
import { html } from "../lib/preact.js";

/** @typedef {import('../types.js').Presence} Presence */

/**
 * The seed's presence mapping: green Available, spinner "Working on …", amber "Needs your
 * input", grey Offline.
 * @param {{ presence?: Presence }} props
 */
export function PresenceLine({ presence }) {
  const state = presence?.state ?? "offline";
  if (state === "working") {
    const what = presence?.job_title ?? presence?.detail?.replace(/^Working on\s*/i, "") ?? "a job";
    return html`<span class="presence presence-working"><span class="spinner" aria-hidden="true"></span>Working on ${what}</span>`;
  }
  if (state === "waiting_on_you") return html`<span class="presence presence-waiting"><span class="dot"></span>Needs your input</span>`;
  if (state === "available") return html`<span class="presence presence-available"><span class="dot"></span>Available</span>`;
  return html`<span class="presence presence-offline"><span class="dot"></span>Offline</span>`;
}
