// @ts-check
import { html } from "../lib/preact.js";
import { lex } from "../lib/markdown.js";
import { LinkedText } from "./linked-text.js";

/** @typedef {import('marked').Token} Token */

/** Only these open from a message; anything else (javascript:, data:) stays text. */
const SAFE = new Set(["http:", "https:", "mailto:"]);
/** Anything that could be Markdown; text without it is drawn as before, untouched. */
const MARKS = /[*_~`>[]|^[ \t]{0,3}(?:[-+]|\d{1,9}[.)])[ \t]/m;

/**
 * A person's message with its Markdown drawn as elements, never as HTML: bold, italic, strike,
 * inline code and code blocks, lists, quotes and links. Raw HTML, images and headings stay the
 * text that was typed. Plain text keeps its addresses as links and its mentions marked.
 * @param {{ text: string, mentioned?: string[] | undefined }} props
 */
export function FormattedText({ text, mentioned }) {
  if (!MARKS.test(text)) return html`<${LinkedText} text=${text} mentioned=${mentioned} />`;
  const blocks = lex(text).filter((b) => b.type !== "space");
  // One paragraph is drawn inline, like plain text: no block around it.
  if (blocks.length === 1 && blocks[0]?.type === "paragraph") return inline(blocks[0].tokens ?? [], mentioned);
  return html`${blocks.map((b, i) => block(b, i, mentioned))}`;
}

/** @param {Token} b @param {number} key @param {string[] | undefined} mentioned @returns {any} */
function block(b, key, mentioned) {
  switch (b.type) {
    case "paragraph":
      return html`<span key=${key} class="md-p">${inline(b.tokens ?? [], mentioned)}</span>`;
    case "code":
      return html`<pre key=${key} class="md-code"><code>${b.text}</code></pre>`;
    case "blockquote":
      return html`<blockquote key=${key} class="md-quote">${(b.tokens ?? []).filter((t) => t.type !== "space").map((t, i) => block(t, i, mentioned))}</blockquote>`;
    case "list": {
      const items = b.items.map(
        (/** @type {any} */ it, /** @type {number} */ i) =>
          html`<li key=${i}>${(it.tokens ?? []).map((/** @type {Token} */ t, /** @type {number} */ j) => block(t, j, mentioned))}</li>`,
      );
      return b.ordered
        ? html`<ol key=${key} class="md-list" start=${typeof b.start === "number" && b.start !== 1 ? b.start : undefined}>${items}</ol>`
        : html`<ul key=${key} class="md-list">${items}</ul>`;
    }
    case "text":
      // A list item's text: its own inline tokens.
      return html`<span key=${key}>${"tokens" in b && b.tokens ? inline(b.tokens, mentioned) : html`<${LinkedText} text=${b.text} mentioned=${mentioned} />`}</span>`;
    default:
      // Headings, rules, tables and HTML stay the words that were typed.
      return html`<span key=${key} class="md-p">${trimEnd(b.raw)}</span>`;
  }
}

/** @param {Token[]} tokens @param {string[] | undefined} mentioned @returns {any} */
function inline(tokens, mentioned) {
  return html`${tokens.map((t, i) => {
    switch (t.type) {
      case "strong":
        return html`<strong key=${i}>${inline(t.tokens ?? [], mentioned)}</strong>`;
      case "em":
        return html`<em key=${i}>${inline(t.tokens ?? [], mentioned)}</em>`;
      case "del":
        return html`<s key=${i}>${inline(t.tokens ?? [], mentioned)}</s>`;
      case "codespan":
        return html`<code key=${i} class="md-code-inline">${t.text}</code>`;
      case "br":
        return html`<br key=${i} />`;
      case "link": {
        const href = safeHref(t.href);
        if (!href) return t.raw;
        return html`<a key=${i} class="msg-link" href=${href} rel="noopener noreferrer" target=${href.startsWith("mailto:") ? undefined : "_blank"}>${inline(t.tokens ?? [], mentioned)}</a>`;
      }
      case "text":
        return "tokens" in t && t.tokens
          ? inline(t.tokens, mentioned)
          : html`<${LinkedText} key=${i} text=${t.text} mentioned=${mentioned} />`;
      case "escape":
        return t.text;
      default:
        // Images, raw HTML and anything else: the characters that were typed.
        return t.raw;
    }
  })}`;
}

/** The address when the browser's own URL parser gives it a safe protocol, else null. @param {string} href */
function safeHref(href) {
  try {
    const u = new URL(href);
    return SAFE.has(u.protocol) ? u.href : null;
  } catch {
    return null;
  }
}

/** @param {string} s */
function trimEnd(s) {
  let end = s.length;
  while (end > 0 && s[end - 1] === "\n") end--;
  return s.slice(0, end);
}
