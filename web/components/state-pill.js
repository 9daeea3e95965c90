// @ts-check
import { html } from "../lib/preact.js";
import { stateLabel, stateTone } from "../format.js";

/** @param {{ state: string }} props */
export function StatePill({ state }) {
  return html`<span class=${`pill pill-${stateTone(state)}`}>${stateLabel(state)}</span>`;
}
