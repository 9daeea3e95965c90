// @ts-check
import { html, useState } from "../lib/preact.js";
import { ApiError } from "../api.js";
import { signInWith } from "../boot.js";
import { navigate } from "../router.js";
import { EmailLinkForm } from "./email-link-form.js";

/** Sign in later with a sign-in token, or go create a workspace. */
export function SigninPage() {
  const [token, setToken] = useState("");
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    const t = token.trim();
    const m = /[?&]token=([^&\s]+)/.exec(t) ?? /\/invite\/([^/?\s]+)/.exec(t);
    if (m && /\/invite\//.test(t)) return navigate(`/invite/${m[1]}`);
    setBusy(true);
    setError(null);
    try {
      await signInWith(m ? decodeURIComponent(m[1]) : t);
      navigate("/", { replace: true });
    } catch (err) {
      setBusy(false);
      setError(
        err instanceof ApiError && err.status === 401
          ? "That token isn’t valid. On a device where you are signed in, open your profile and choose “Sign in on another device”."
          : "Couldn’t sign in. Try again.",
      );
    }
  };
  return html`<main class="auth">
    <div class="auth-card">
      <div class="auth-logo" aria-hidden="true">✦</div>
      <h1>LogLine</h1>
      <p class="auth-lead">Your team and your agent coworkers, in one chat.</p>
      <form onSubmit=${submit} class="modal-form">
        <div class="form-field">
          <label for="signin-token">Sign-in token or link</label>
          <input id="signin-token" autocomplete="off" placeholder="Paste your sign-in link or token" value=${token}
            onInput=${(/** @type {any} */ e) => setToken(e.currentTarget.value)} />
          ${error ? html`<span class="field-error" role="alert">${error}</span>` : html`<span class="hint">Signed in somewhere else? Open your profile there and choose “Sign in on another device”. New to the team? Use the invite link a coworker sent you.</span>`}
        </div>
        <button class="btn btn-primary btn-block" type="submit" disabled=${busy || !token.trim()}>Sign in</button>
      </form>
      <${EmailLinkForm} />
      <div class="auth-alt"><span>New here?</span>
        <a href="/onboarding" onClick=${(/** @type {Event} */ e) => {
          e.preventDefault();
          navigate("/onboarding");
        }}>Create a workspace</a></div>
    </div>
  </main>`;
}
