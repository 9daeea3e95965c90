// @ts-check
import { html } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { clock } from "../format.js";
import { TokenText } from "./token-text.js";
import { LinkedText } from "./linked-text.js";

/**
 * A text bubble: mine on the right, theirs on the left with the sender's name in group chats.
 * Text is rendered as text, line breaks kept by CSS; `links` (people's messages) makes web and mail addresses links.
 * A message that mentions the reader is marked (a stronger bubble and the words "mentions you").
 * @param {{ text: string, ts: string, mine: boolean, sender?: string, status?: 'sending'|'sent'|'failed', onRetry?: () => void, action?: boolean, links?: boolean, mentionsYou?: boolean }} props
 */
export function MessageBubble({ text, ts, mine, sender, status, onRetry, action, links, mentionsYou }) {
  return html`<div class=${`msg ${mine ? "msg-out" : "msg-in"}${action ? " msg-action" : ""}${status === "failed" ? " msg-failed" : ""}${mentionsYou ? " msg-mentions-you" : ""}`}>
    <div class="bubble">
      ${mentionsYou ? html`<span class="mention-mark">Mentions you</span>` : null}
      ${sender && !mine ? html`<span class="sender">${sender}</span>` : null}
      <span class="text">${action ? html`<span class="action-mark"><${Icon} name="bolt" size=${13} /></span>` : null}${links ? html`<${LinkedText} text=${text} />` : html`<${TokenText} text=${text} />`}</span>
      <span class="meta">${clock(ts)}${
        mine
          ? html`<span class=${`tick tick-${status ?? "sent"}`}><span aria-hidden="true">${status === "sending" ? html`<${Icon} name="clock" size=${12} />` : status === "failed" ? "!" : "✓"}</span><span class="visually-hidden">${status === "sending" ? "Sending" : status === "failed" ? "Not sent" : "Sent"}</span></span>`
          : null
      }</span>
    </div>
    ${status === "failed" ? html`<button type="button" class="retry" onClick=${onRetry}>Couldn’t send — retry</button>` : null}
  </div>`;
}
