// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { api } from "../api.js";
import { listTime } from "../format.js";
import { addPasskey, isCancelled, passkeysSupported } from "../passkey-ceremony.js";
import { toast } from "../store.js";

/** @typedef {import('../types.js').PasskeyInfo} PasskeyInfo */

/** Passkeys in the profile: add one on this device, the list (added, last used), Remove for each. */
export function PasskeysSection() {
  const [passkeys, setPasskeys] = useState(/** @type {PasskeyInfo[] | null} */ (null));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const load = () =>
    api
      .listPasskeys()
      .then((r) => setPasskeys(r.passkeys))
      .catch(() => setError(t("passkeys.load_error")));
  useEffect(() => void load(), []);

  const add = async () => {
    setBusy(true);
    setError(null);
    try {
      await addPasskey();
      toast(t("passkeys.added_toast"));
      await load();
    } catch (err) {
      setError(isCancelled(err) ? t("passkeys.cancelled") : t("passkeys.failed"));
    } finally {
      setBusy(false);
    }
  };
  /** @param {PasskeyInfo} p */
  const remove = async (p) => {
    setError(null);
    try {
      await api.removePasskey(p.passkey_id);
      toast(t("passkeys.removed_toast"));
      await load();
    } catch {
      setError(t("passkeys.failed"));
    }
  };

  return html`<section class="passkeys" aria-labelledby="passkeys-title">
    <h3 id="passkeys-title">${t("passkeys.title")}</h3>
    <p class="small muted">${t("passkeys.lead")}</p>
    ${passkeysSupported() ? html`<button type="button" class="btn" disabled=${busy} onClick=${add}>${t("passkeys.add")}</button>` : null}
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    ${
      passkeys && passkeys.length === 0
        ? html`<p class="small muted">${t("passkeys.none")}</p>`
        : passkeys
          ? html`<ul class="session-list" aria-label=${t("passkeys.list")}>
          ${passkeys.map(
            (p) => html`<li class="session-row passkey-row" key=${p.passkey_id}>
              <div class="session-info">
                <strong>${p.device ?? t("passkeys.unknown_device")}</strong>
                <span class="small muted">${[t("passkeys.added", { when: listTime(p.created_at) }), p.last_used_at ? t("passkeys.last_used", { when: listTime(p.last_used_at) }) : t("passkeys.never_used")].join(" · ")}</span>
              </div>
              <button type="button" class="btn btn-ghost" aria-label=${t("passkeys.remove_label", { device: p.device ?? t("passkeys.unknown_device") })} onClick=${() => void remove(p)}>${t("passkeys.remove")}</button>
            </li>`,
          )}
        </ul>`
          : null
    }
  </section>`;
}
