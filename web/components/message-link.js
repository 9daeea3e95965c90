// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { navigate } from "../router.js";
import { openLinkedMessage } from "../message-links.js";

/**
 * A link to one message: the server is asked first, and only a member of its conversation is
 * taken there (opened at the message, highlighted). Anyone else — and anyone following a link to
 * a deleted message — reads one plain "not found" that says nothing of the message.
 * @param {{ cid: string, mid: string }} props
 */
export function MessageLink({ cid, mid }) {
  const [state, setState] = useState(/** @type {'pending' | 'gone' | 'failed'} */ ("pending"));
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    setState("pending");
    openLinkedMessage(cid, mid).then(
      (ok) => !ok && setState("gone"),
      () => setState("failed"),
    );
  }, [cid, mid, attempt]);
  // The page changed under the reader: its heading says what happened, so focus goes there.
  useEffect(() => {
    if (state !== "pending") /** @type {HTMLElement | null} */ (document.getElementById("link-gone-title"))?.focus();
  }, [state]);
  // The server could not be asked (offline, restarting): that is not "not found".
  if (state === "failed")
    return html`<section class="link-gone welcome" aria-labelledby="link-gone-title">
      <div class="welcome-inner">
        <h1 id="link-gone-title" tabIndex="-1">${t("links.failed_title")}</h1>
        <p>${t("links.failed_body")}</p>
        <button type="button" class="btn" onClick=${() => setAttempt((n) => n + 1)}>${t("links.retry")}</button>
      </div>
    </section>`;
  if (state === "pending")
    return html`<section class="link-pending" aria-busy="true" aria-label=${t("links.opening")}><span class="spinner"></span></section>`;
  return html`<section class="link-gone welcome" aria-labelledby="link-gone-title">
    <div class="welcome-inner">
      <h1 id="link-gone-title" tabIndex="-1">${t("links.gone_title")}</h1>
      <p>${t("links.gone_body")}</p>
      <button type="button" class="btn" onClick=${() => navigate("/")}>${t("links.back")}</button>
    </div>
  </section>`;
}
