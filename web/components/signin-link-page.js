// @ts-check
import { t } from "../i18n.js";
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

/** Read when shown, not at import: the language loads after the modules. */
const incomplete = () => t("signin_link.incomplete");

/** @param {unknown} err */
function explain(err) {
  if (!(err instanceof ApiError)) return t("signin_link.offline");
  if (err.code === "SIGNIN_LINK_USED") return t("signin_link.used");
  if (err.code === "SIGNIN_LINK_EXPIRED") return t("signin_link.expired");
  if (err.status === 404 || err.status === 400) return t("signin_link.invalid");
  if (err.status === 429) return err.message;
  return t("signin.error");
}

/**
 * Opened from a sign-in link (another device's QR code, or an email). Nothing happens until the
 * person confirms: a link previewer that fetches the page must not use up the link.
 */
export function SigninLinkPage() {
  const [code, setCode] = useState(takeCode);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(code ? null : incomplete());
  useEffect(() => {
    // Another link opened in this same tab changes only the part after `#`.
    const onHash = () => {
      if (!location.hash) return;
      const next = takeCode();
      setCode(next);
      setError(next ? null : incomplete());
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
      <h1>${t("signin_link.title")}</h1>
      <p class="auth-lead">${t("signin_link.lead")}</p>
      ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      ${code && !error ? html`<button type="button" class="btn btn-primary btn-block" disabled=${busy} onClick=${go}>${busy ? t("signin_link.signing_in") : t("signin.submit")}</button>` : null}
      <div class="auth-alt">
        <a href="/signin" onClick=${(/** @type {Event} */ e) => {
          e.preventDefault();
          navigate("/signin");
        }}>${t("signin_link.other_ways")}</a>
      </div>
    </div>
  </main>`;
}
