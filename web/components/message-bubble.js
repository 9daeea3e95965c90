// @ts-check
import { html } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { clock } from "../format.js";
import { TokenText } from "./token-text.js";

/**
 * A text bubble: mine on the right, theirs on the left with the sender's name in group chats.
 * Text is rendered as text, line breaks kept by CSS.
 * A message that mentions the reader is marked (a stronger bubble and the words "mentions you").
 * @param {{ text: string, ts: string, mine: boolean, sender?: string, status?: 'sending'|'sent'|'failed', onRetry?: () => void, action?: boolean, mentionsYou?: boolean }} props
 */
export function MessageBubble({ text, ts, mine, sender, status, onRetry, action, mentionsYou }) {
  return html`<div class=${`msg ${mine ? "msg-out" : "msg-in"}${action ? " msg-action" : ""}${status === "failed" ? " msg-failed" : ""}${mentionsYou ? " msg-mentions-you" : ""}`}>
    <div class="bubble">
      ${mentionsYou ? html`<span class="mention-mark">Mentions you</span>` : null}
      ${sender && !mine ? html`<span class="sender">${sender}</span>` : null}
      <span class="text">${action ? html`<span class="action-mark"><${Icon} name="bolt" size=${13} /></span>` : null}<${TokenText} text=${text} /></span>
      <span class="meta">${clock(ts)}${
        mine
          ? html`<span class=${`tick tick-${status ?? "sent"}`} aria-label=${status === "sending" ? "Sending" : status === "failed" ? "Not sent" : "Sent"}>
        ${status === "sending" ? html`<${Icon} name="clock" size=${12} />` : status === "failed" ? "!" : "✓"}</span>`
          : null
      }</span>
    </div>
    ${status === "failed" ? html`<button type="button" class="retry" onClick=${onRetry}>Couldn’t send — retry</button>` : null}
  </div>`;
}
