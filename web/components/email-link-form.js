// @ts-check
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
      setError(err instanceof ApiError && (err.status === 400 || err.status === 429) ? err.message : "Couldn’t send it. Try again.");
    } finally {
      setBusy(false);
    }
  };
  return html`<form onSubmit=${submit} class="modal-form email-link-form" aria-label="Email me a sign-in link">
    <div class="form-field">
      <label for="signin-email">Or get a sign-in link by email</label>
      <input id="signin-email" type="email" autocomplete="email" maxlength=${LIMITS.emailChars} placeholder="you@example.com" value=${email}
        onInput=${(/** @type {any} */ e) => setEmail(e.currentTarget.value)} />
      ${error ? html`<span class="field-error" role="alert">${error}</span>` : null}
      ${done ? html`<span class="hint" role="status">${done}</span>` : null}
    </div>
    <button class="btn btn-block" type="submit" disabled=${busy || !email.trim()}>Email me a sign-in link</button>
  </form>`;
}
