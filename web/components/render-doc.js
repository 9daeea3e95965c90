// @ts-check
import { html } from "../lib/preact.js";

/** @typedef {import('../types.js').RenderDoc} RenderDoc */
/** @typedef {import('../types.js').RenderBlock} RenderBlock */

/** Only https: and mailto: open; anything else (already refused by the server) renders as text. @param {string} href */
const safe = (href) => {
  try {
    const u = new URL(href);
    return u.protocol === "https:" || u.protocol === "mailto:" ? u.href : null;
  } catch {
    return null;
  }
};

/** @param {any[]} nodes */
function inline(nodes) {
  return nodes.map((n, i) => {
    if (n.type === "link") {
      const href = safe(n.href);
      const text = n.children.map((/** @type {any} */ c) => c.text).join("");
      return href
        ? html`<a key=${i} href=${href} target="_blank" rel="noopener noreferrer nofollow">${text}</a>`
        : text;
    }
    return n.text;
  });
}

/** @param {RenderBlock} b @param {number} i @returns {any} */
function block(b, i) {
  switch (b.type) {
    case "heading":
      return html`<p key=${i} class="render-heading">${inline(b.children)}</p>`;
    case "paragraph":
      return html`<p key=${i}>${inline(b.children)}</p>`;
    case "list": {
      const items = b.items.map((it, k) => html`<li key=${k}>${it.children.map(block)}</li>`);
      return b.ordered ? html`<ol key=${i}>${items}</ol>` : html`<ul key=${i}>${items}</ul>`;
    }
    case "blockquote":
      return html`<blockquote key=${i}>${b.children.map(block)}</blockquote>`;
    case "code_block":
      return html`<pre key=${i}><code>${b.text}</code></pre>`;
    case "table":
      return html`<table key=${i}><tbody>${b.rows.map((r, k) => html`<tr key=${k}>${r.cells.map((c, m) => (c.header ? html`<th key=${m}>${inline(c.children)}</th>` : html`<td key=${m}>${inline(c.children)}</td>`))}</tr>`)}</tbody></table>`;
    default:
      return null;
  }
}

/** A rich agent reply built as DOM from the safe AST: never HTML from data. @param {{ doc: RenderDoc }} props */
export function RenderDocView({ doc }) {
  return html`<div class="render-doc">${doc.children.map(block)}</div>`;
}
