// @ts-check
import { t } from "../i18n.js";
import { LIMITS } from "../lib/facts.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";

/**
 * "Email me a sign-in link", shown when this server sends mail. The answer is the same whether
 * or not the address belongs to anyone here, so it says what to expect, not what was found.
 */
export function EmailLinkForm() {
  const [offered, setOffered] = useState(false);
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(/** @type {string | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  useEffect(() => {
    api
      .signInOptions()
      .then((o) => setOffered(o.email_links))
      .catch(() => setOffered(false));
  }, []);
  if (!offered) return null;
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await api.emailSignInLink(email.trim());
      setDone(r.message);
    } catch (err) {
      setError(
        err instanceof ApiError && (err.status === 400 || err.status === 429) ? err.message : t("email_link.error"),
      );
    } finally {
      setBusy(false);
    }
  };
  return html`<form onSubmit=${submit} class="modal-form email-link-form" aria-label=${t("email_link.submit")}>
    <div class="form-field">
      <label for="signin-email">${t("email_link.label")}</label>
      <input id="signin-email" type="email" autocomplete="email" maxlength=${LIMITS.emailChars} placeholder=${t("email_link.placeholder")} value=${email}
        onInput=${(/** @type {any} */ e) => setEmail(e.currentTarget.value)} />
      ${error ? html`<span class="field-error" role="alert">${error}</span>` : null}
      ${done ? html`<span class="hint" role="status">${done}</span>` : null}
    </div>
    <button class="btn btn-block" type="submit" disabled=${busy || !email.trim()}>${t("email_link.submit")}</button>
  </form>`;
}
