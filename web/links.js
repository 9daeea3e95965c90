// @ts-check
import { find } from "./lib/linkify.js";

/** Only these open from a message; anything else someone types (javascript:, data:, ftp:) stays text. */
const SAFE = new Set(["http:", "https:", "mailto:"]);

/**
 * Text cut into plain parts and links. A link's href is what linkify found, accepted only when
 * the browser's own URL parser gives it one of the safe protocols.
 * @param {string} text
 * @returns {Array<{ text: string } | { text: string, href: string, external: boolean }>}
 */
export function splitLinks(text) {
  /** @type {Array<{ text: string } | { text: string, href: string, external: boolean }>} */
  const out = [];
  let at = 0;
  for (const m of find(text)) {
    if (m.type !== "url" && m.type !== "email") continue;
    let protocol = "";
    try {
      protocol = new URL(m.href).protocol;
    } catch {
      continue;
    }
    if (!SAFE.has(protocol)) continue;
    if (m.start > at) out.push({ text: text.slice(at, m.start) });
    out.push({ text: m.value, href: m.href, external: protocol !== "mailto:" });
    at = m.end;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}
