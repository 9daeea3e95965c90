// @ts-check
// marked reads Markdown (well kept, no dependencies; its ES build has no imports). Only its lexer
// is used: the tokens become elements in components/formatted-text.js, never HTML. The gateway
// serves node_modules/marked at /vendor/marked/.
// @ts-expect-error -- resolved by the browser, not by tsc; typed export below
import * as M from "/vendor/marked/lib/marked.esm.js";

/** @typedef {import('marked').Token} Token */

/**
 * The Markdown tokens of a message (GitHub's dialect: ~~strike~~, bare addresses as links).
 * @param {string} text @returns {Token[]}
 */
export function lex(text) {
  return M.Lexer.lex(text, { gfm: true, breaks: false });
}
