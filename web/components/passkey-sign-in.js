// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { ApiError } from "../api.js";
import { signInWith } from "../boot.js";
import { isCancelled, passkeysSupported, signInWithPasskey } from "../passkey-ceremony.js";
import { navigate } from "../router.js";

/** "Sign in with a passkey" on the sign-in page; absent where the browser cannot use passkeys. */
export function PasskeySignIn() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  if (!passkeysSupported()) return null;
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      const made = await signInWithPasskey();
      await signInWith(made.token);
      navigate("/", { replace: true });
    } catch (err) {
      setBusy(false);
      const reason = err instanceof ApiError ? err.details.reason : undefined;
      setError(
        isCancelled(err)
          ? t("passkeys.cancelled")
          : reason === "unknown_credential"
            ? t("passkeys.unknown")
            : reason === "deactivated"
              ? t("passkeys.deactivated")
              : t("passkeys.failed"),
      );
    }
  };
  return html`<div class="passkey-sign-in">
    <button type="button" class="btn btn-block" disabled=${busy} onClick=${go}>${t("passkeys.sign_in")}</button>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
  </div>`;
}
