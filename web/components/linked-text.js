// @ts-check
import { html } from "../lib/preact.js";
import { splitLinks } from "../links.js";
import { TokenText } from "./token-text.js";

/**
 * A person's message text with its http, https and mailto addresses as links (web pages open in
 * a new tab without access to this one); the rest renders like TokenText, as text nodes.
 * @param {{ text: string, mentioned?: string[] | undefined }} props
 */
export function LinkedText({ text, mentioned }) {
  return html`${splitLinks(text).map((p, i) =>
    "href" in p
      ? html`<a key=${i} class="msg-link" href=${p.href} rel="noopener noreferrer" target=${p.external ? "_blank" : undefined}>${p.text}</a>`
      : html`<${TokenText} key=${i} text=${p.text} mentioned=${mentioned} />`,
  )}`;
}
