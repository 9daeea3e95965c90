// @ts-check
// @tanstack/virtual-core keeps only the rows near the viewport in the DOM, measuring each row as
// it renders (messages, cards and dividers differ in height). Its ES build imports only its own
// files by relative path; the gateway serves node_modules/@tanstack/virtual-core at
// /vendor/@tanstack/virtual-core/. Types come from the installed package.
// @ts-expect-error -- resolved by the browser, not by tsc; typed export by export below
import * as V from "/vendor/@tanstack/virtual-core/dist/esm/index.js";

// Its build reads process.env.NODE_ENV when it runs (for debug labels): the page says production.
const g = /** @type {any} */ (globalThis);
g.process ??= { env: { NODE_ENV: "production" } };

/** @typedef {import('@tanstack/virtual-core').Virtualizer<HTMLElement, HTMLElement>} Virtualizer */
/** @typedef {import('@tanstack/virtual-core').VirtualizerOptions<HTMLElement, HTMLElement>} VirtualizerOptions */

/** @type {typeof import('@tanstack/virtual-core').Virtualizer} */
export const VirtualizerClass = V.Virtualizer;
/** @type {typeof import('@tanstack/virtual-core').elementScroll} */
export const elementScroll = V.elementScroll;
/** @type {typeof import('@tanstack/virtual-core').observeElementRect} */
export const observeElementRect = V.observeElementRect;
/** @type {typeof import('@tanstack/virtual-core').observeElementOffset} */
export const observeElementOffset = V.observeElementOffset;
