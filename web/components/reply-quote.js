// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { jumpToMessage } from "../message-actions.js";

/**
 * The quote above a reply: who wrote the original and its first words; a click (or Enter) jumps
 * to the original and highlights it. A deleted original shows only that it was deleted.
 * @param {{ reply: NonNullable<import('../types.js').TimelineItem['reply_to']> }} props
 */
export function ReplyQuote({ reply }) {
  const who = reply.sender_name ?? t("reply.a_message");
  const text = reply.deleted ? t("bubble.deleted") : (reply.snippet ?? "");
  return html`<button type="button" class=${`reply-quote${reply.deleted ? " reply-quote-deleted" : ""}`}
    aria-label=${t("reply.label", { name: who, text })} onClick=${() => jumpToMessage(reply.message_id)}>
    <span class="reply-quote-name">${who}</span>
    <span class="reply-quote-text">${text}</span>
  </button>`;
}
