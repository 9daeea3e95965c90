// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { signInWith } from "../boot.js";
import { navigate } from "../router.js";

/**
 * The code arrives after `#` (never sent to the server in the address); it is read once and
 * taken out of the address bar, so it stays out of history too.
 */
function takeCode() {
  const c = /^#(lnk_[A-Za-z0-9_-]{43})$/.exec(location.hash)?.[1] ?? null;
  if (location.hash) history.replaceState(null, "", location.pathname);
  return c;
}

const INCOMPLETE = "This sign-in link isn’t complete. Open the whole link, or make a new one on a device where you are signed in.";

/** @param {unknown} err */
function explain(err) {
  if (!(err instanceof ApiError)) return "Couldn’t sign in. Check your connection and try again.";
  if (err.code === "SIGNIN_LINK_USED") return "This link was already used. A sign-in link works once: make a new one on a device where you are signed in.";
  if (err.code === "SIGNIN_LINK_EXPIRED") return "This link has expired. Make a new one on a device where you are signed in.";
  if (err.status === 404 || err.status === 400) return "This sign-in link isn’t valid. Check that you opened the whole link, or make a new one.";
  if (err.status === 429) return err.message;
  return "Couldn’t sign in. Try again.";
}

/**
 * Opened from a sign-in link (another device's QR code, or an email). Nothing happens until the
 * person confirms: a link previewer that fetches the page must not use up the link.
 */
export function SigninLinkPage() {
  const [code, setCode] = useState(takeCode);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(code ? null : INCOMPLETE);
  useEffect(() => {
    // Another link opened in this same tab changes only the part after `#`.
    const onHash = () => {
      if (!location.hash) return;
      const next = takeCode();
      setCode(next);
      setError(next ? null : INCOMPLETE);
      setBusy(false);
    };
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);
  const go = async () => {
    if (!code) return;
    setBusy(true);
    setError(null);
    try {
      const r = await api.redeemSignInLink(code);
      await signInWith(r.token);
      navigate("/", { replace: true });
    } catch (err) {
      setBusy(false);
      setError(explain(err));
    }
  };
  return html`<main class="auth">
    <div class="auth-card">
      <div class="auth-logo" aria-hidden="true">✦</div>
      <h1>Sign in on this device</h1>
      <p class="auth-lead">This one-time link signs you in here as yourself, with your conversations. It works once and for a few minutes.</p>
      ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      ${code && !error ? html`<button type="button" class="btn btn-primary btn-block" disabled=${busy} onClick=${go}>${busy ? "Signing in…" : "Sign in"}</button>` : null}
      <div class="auth-alt">
        <a href="/signin" onClick=${(/** @type {Event} */ e) => {
          e.preventDefault();
          navigate("/signin");
        }}>Other ways to sign in</a>
      </div>
    </div>
  </main>`;
}
