// @ts-check
// linkifyjs finds addresses in plain text (well kept, no dependencies; its ES build has no
// imports). The gateway serves node_modules/linkifyjs at /vendor/linkifyjs/.
// @ts-expect-error -- resolved by the browser, not by tsc; typed export below
import * as L from "/vendor/linkifyjs/dist/linkify.mjs";

/** @type {typeof import('linkifyjs').find} */
export const find = L.find;
