import { find } from "linkifyjs";
import { PREVIEW_LIMITS } from "../../../contracts/events.js";

/** The http(s) links of a text, in order, each once, at most `max` (all of them by default). */
export function linksOf(text: string, max = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  for (const l of find(text, "url")) {
    const href = l.href;
    if (!(href.startsWith("http://") || href.startsWith("https://"))) continue;
    if (href.length > PREVIEW_LIMITS.url || out.includes(href)) continue;
    out.push(href);
    if (out.length >= max) break;
  }
  return out;
}
