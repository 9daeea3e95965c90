// @ts-check
import { html } from "../lib/preact.js";

/** A centred system line (joins, policy notices). @param {{ text: string }} props */
export function SystemEvent({ text }) {
  return html`<div class="sys" role="note"><span>${text}</span></div>`;
}
