// @ts-check
import { html, useEffect, useRef, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { t } from "../i18n.js";
import { LIMITS } from "../lib/facts.js";
import { getState, setEntities, toast } from "../store.js";
import { Avatar } from "./avatar.js";
import { useSavedToggle } from "./saved-toggle.js";

/** @typedef {import('../store.js').State} State */

const PICTURE_TYPES = "image/png,image/jpeg,image/gif,image/webp";

/**
 * My profile picture: choose a file (the server checks it is a PNG, JPEG, GIF or WebP within
 * the limits and says why not), or remove it for initials. Coworkers see it live.
 * @param {{ s: State }} props
 */
export function ProfilePicture({ s }) {
  const me = s.me;
  const input = useRef(/** @type {HTMLInputElement | null} */ (null));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  if (!me) return null;
  const mine = s.entities[me.entity_id];
  /** @param {() => Promise<any>} run @param {string} done @param {string} failed */
  const act = async (run, done, failed) => {
    setBusy(true);
    setError(null);
    try {
      const r = await run();
      const cur = getState().me;
      if (cur) setEntities([{ entity_id: cur.entity_id, display_name: r.display_name, avatar_url: r.avatar_url }]);
      toast(done);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : failed);
    }
    setBusy(false);
    if (input.current) input.current.value = "";
  };
  /** @param {Event} e */
  const chosen = (e) => {
    const file = /** @type {HTMLInputElement} */ (e.currentTarget).files?.[0];
    if (!file) return;
    if (file.size > LIMITS.avatarBytes) {
      setError(t("people.avatar.tooLarge", { mb: LIMITS.avatarBytes / 1024 / 1024 }));
      return;
    }
    void act(() => api.setAvatar(file), t("people.avatar.saved"), t("people.avatar.failed"));
  };
  return html`<section class="modal-form profile-picture" aria-labelledby="profile_picture_title">
    <h3 id="profile_picture_title" class="small">${t("people.avatar.title")}</h3>
    <div class="profile-avatar-row">
      <${Avatar} name=${mine?.display_name ?? me.display_name} id=${me.entity_id} />
      <label for="my_avatar">${t("people.avatar.choose")}</label>
      <input id="my_avatar" type="file" accept=${PICTURE_TYPES} disabled=${busy} ref=${input} onChange=${chosen}
        aria-describedby="my_avatar_hint" />
      ${
        mine?.avatar_url
          ? html`<button type="button" class="btn btn-ghost" disabled=${busy} onClick=${() => act(() => api.removeAvatar(), t("people.avatar.removed"), t("people.avatar.failed"))}>${t("people.avatar.remove")}</button>`
          : null
      }
    </div>
    <p id="my_avatar_hint" class="muted small">${t("people.avatar.hint", { mb: LIMITS.avatarBytes / 1024 / 1024 })}</p>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
  </section>`;
}

/**
 * The e-mail digest: a checkbox when this server sends mail and my email is on file; otherwise
 * the reason it is unavailable.
 * @param {{ s: State }} props
 */
export function DigestSetting({ s }) {
  const [settings, setSettings] = useState(
    /** @type {null | { enabled: boolean, available: boolean, reason?: string, after_minutes: number }} */ (null),
  );
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const email = s.me?.email;
  useEffect(() => {
    api.digestSettings().then(setSettings, () => setError(t("people.digest.loadFailed")));
  }, [email]);
  /** @param {boolean} on */
  const toggle = async (on) => {
    setError(null);
    try {
      await api.updateProfile({ email_digest: on });
      setSettings((now) => (now ? { ...now, enabled: on } : now));
      toast(on ? t("people.digest.on") : t("people.digest.off"));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("people.digest.saveFailed"));
    }
  };
  const box = useSavedToggle(!!settings?.enabled, toggle);
  if (!settings) return error ? html`<p class="form-error" role="alert">${error}</p>` : null;
  return html`<section class="modal-form digest-setting" aria-labelledby="digest_title">
    <h3 id="digest_title" class="small">${t("people.digest.title")}</h3>
    <label class="checkbox-row">
      <input type="checkbox" id="my_digest" checked=${box.checked} disabled=${!settings.available}
        aria-describedby="my_digest_hint" onChange=${box.onChange} />
      ${t("people.digest.label", { minutes: settings.after_minutes })}
    </label>
    <p id="my_digest_hint" class="muted small">${
      settings.available
        ? t("people.digest.hint")
        : settings.reason === "no_email"
          ? t("people.digest.noEmail")
          : t("people.digest.noMail")
    }</p>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
  </section>`;
}
