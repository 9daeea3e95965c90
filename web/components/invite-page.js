// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { signInWith } from "../boot.js";
import { navigate } from "../router.js";

/** Joining a workspace from an invite link: your name, then straight into the chats. @param {{ token: string }} props */
export function InvitePage({ token }) {
  const [name, setName] = useState("");
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  /** @param {Event} e */
  const submit = async (e) => {
    e.preventDefault();
    if (!name.trim()) return setError(t("invite.name_required"));
    setBusy(true);
    setError(null);
    try {
      const r = await api.acceptInvite(token, name.trim());
      await signInWith(r.token);
      navigate("/", { replace: true });
    } catch (err) {
      setBusy(false);
      setError(
        err instanceof ApiError && (err.status === 404 || err.status === 410)
          ? t("invite.expired")
          : err instanceof Error
            ? err.message
            : t("invite.error"),
      );
    }
  };
  return html`<main class="auth">
    <div class="auth-card">
      <div class="auth-logo" aria-hidden="true">✦</div>
      <h1>${t("invite.title")}</h1>
      <p class="auth-lead">${t("invite.lead")}</p>
      <form onSubmit=${submit} class="modal-form">
        <div class=${`form-field${error ? " has-error" : ""}`}>
          <label for="invite-name">${t("invite.name")}</label>
          <input id="invite-name" autocomplete="name" placeholder=${t("invite.name_placeholder")} value=${name}
            onInput=${(/** @type {any} */ e) => setName(e.currentTarget.value)} />
          ${error ? html`<span class="field-error" role="alert">${error}</span>` : null}
        </div>
        <button class="btn btn-primary btn-block" type="submit" disabled=${busy}>${t("invite.submit")}</button>
      </form>
    </div>
  </main>`;
}
