// @ts-check
import { html } from "../lib/preact.js";
import { splitTokens } from "../tokens.js";

/** Message text with `[ref …]`/`[op …]` tokens shown as chips; everything is a text node. @param {{ text: string }} props */
export function TokenText({ text }) {
  return html`${splitTokens(text).map((p, i) => ("chip" in p ? html`<span key=${i} class=${`token-chip token-${p.kind}`}>${p.chip}</span>` : p.text))}`;
}
