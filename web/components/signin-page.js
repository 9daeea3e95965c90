// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { ApiError } from "../api.js";
import { signInWith } from "../boot.js";
import { navigate } from "../router.js";
import { EmailLinkForm } from "./email-link-form.js";
import { PasskeySignIn } from "./passkey-sign-in.js";

/** Sign in later with a sign-in token, or go create a workspace. */
export function SigninPage() {
  const [token, setToken] = useState("");
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    const typed = token.trim();
    const m = /[?&]token=([^&\s]+)/.exec(typed) ?? /\/invite\/([^/?\s]+)/.exec(typed);
    if (m && /\/invite\//.test(typed)) return navigate(`/invite/${m[1]}`);
    setBusy(true);
    setError(null);
    try {
      await signInWith(m ? decodeURIComponent(m[1]) : typed);
      navigate("/", { replace: true });
    } catch (err) {
      setBusy(false);
      setError(err instanceof ApiError && err.status === 401 ? t("signin.bad_token") : t("signin.error"));
    }
  };
  return html`<main class="auth">
    <div class="auth-card">
      <div class="auth-logo" aria-hidden="true">✦</div>
      <h1>LogLine</h1>
      <p class="auth-lead">${t("signin.lead")}</p>
      <form onSubmit=${submit} class="modal-form">
        <div class="form-field">
          <label for="signin-token">${t("signin.token_label")}</label>
          <input id="signin-token" autocomplete="off" placeholder=${t("signin.token_placeholder")} value=${token}
            onInput=${(/** @type {any} */ e) => setToken(e.currentTarget.value)} />
          ${error ? html`<span class="field-error" role="alert">${error}</span>` : html`<span class="hint">${t("signin.hint")}</span>`}
        </div>
        <button class="btn btn-primary btn-block" type="submit" disabled=${busy || !token.trim()}>${t("signin.submit")}</button>
      </form>
      <${PasskeySignIn} />
      <${EmailLinkForm} />
      <div class="auth-alt"><span>${t("signin.new_here")}</span>
        <a href="/onboarding" onClick=${(/** @type {Event} */ e) => {
          e.preventDefault();
          navigate("/onboarding");
        }}>${t("signin.create_workspace")}</a></div>
    </div>
  </main>`;
}
