// @ts-check
import { html } from "../lib/preact.js";
import { splitTokens } from "../tokens.js";
import { splitMentions } from "../mentions.js";

/**
 * Message text with `[ref …]`/`[op …]` tokens shown as chips and the `@Name`s of whom it mentions
 * highlighted; everything is a text node.
 * @param {{ text: string, mentioned?: string[] | undefined }} props
 */
export function TokenText({ text, mentioned = [] }) {
  return html`${splitTokens(text).map((p, i) =>
    "chip" in p
      ? html`<span key=${i} class=${`token-chip token-${p.kind}`}>${p.chip}</span>`
      : splitMentions(p.text, mentioned).map((r) =>
          r.mention ? html`<span class="mention">${r.text}</span>` : r.text,
        ),
  )}`;
}
