// @ts-check
import { LIMITS } from "../lib/facts.js";
import { html, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { getState, setState, toast } from "../store.js";
import { ModalFrame } from "./modal-frame.js";
import { DigestSetting, ProfilePicture } from "./profile-picture.js";
import { SessionsSection } from "./sessions-section.js";
import { PasskeysSection } from "./passkeys-section.js";
import { ThemeSwitch } from "./theme-switch.js";
import { ReadReceiptsSetting } from "./receipts.js";
import { StatusSetting } from "./status-setting.js";
import { AUTO, LOCALES, loadLocale, pickLocale, t } from "../i18n.js";

/** @typedef {import('../store.js').State} State */

/**
 * Your profile: your name and roles, and your own email address, which calendar invites you ask
 * for list you on (it is kept in the vault; coworkers never see it).
 * @param {{ s: State }} props
 */
export function ProfileDialog({ s }) {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const close = () => setState({ dialog: null });
  const me = s.me;
  if (!me) return null;

  /** @param {string | null} value */
  const save = async (value) => {
    setBusy(true);
    setError(null);
    try {
      const r = await api.setMyEmail(value);
      const cur = getState().me;
      if (cur) setState({ me: { ...cur, email: r.email ?? null } });
      toast(value ? t("profile.email_saved") : t("profile.email_removed"));
      close();
    } catch (err) {
      setBusy(false);
      setError(err instanceof ApiError ? err.message : t("profile.email_error"));
    }
  };

  return html`<${ModalFrame} title=${t("profile.title")} onClose=${close}>
    <${ProfilePicture} s=${s} />
    <${ProfileFields} s=${s} />
    <form class="modal-form" onSubmit=${(/** @type {Event} */ e) => {
      e.preventDefault();
      if (email.trim()) void save(email.trim());
    }}>
      <p><strong>${me.display_name}</strong>${me.roles?.length ? html` <span class="muted small">· ${me.roles.join(", ")}</span>` : null}</p>
      <p class="muted small">${me.email ? html`${t("profile.email_on_file")} <strong>${me.email}</strong>.` : t("profile.no_email")} ${t("profile.email_explained")}</p>
      <div class="form-field">
        <label for="my_email">${t("profile.email")}</label>
        <input id="my_email" type="email" autocomplete="email" maxlength=${LIMITS.emailChars} required value=${email}
          onInput=${(/** @type {any} */ e) => setEmail(e.currentTarget.value)} />
      </div>
      ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      <div class="modal-actions">
        ${me.email ? html`<button type="button" class="btn btn-ghost" disabled=${busy} onClick=${() => save(null)}>${t("profile.email_remove")}</button>` : null}
        <button type="submit" class="btn btn-primary" disabled=${busy}>${t("common.save")}</button>
      </div>
    </form>
    <${DigestSetting} s=${s} />
    <${ReadReceiptsSetting} s=${s} />
    <${StatusSetting} s=${s} />
    <${PasskeysSection} />
    <${SessionsSection} />
    <${ThemeSwitch} />
  <//>`;
}

/** The select's value for a saved language: a language we have, else Automatic. @param {string | undefined} saved */
function languageChoice(saved) {
  if (!saved || saved === AUTO) return AUTO;
  const lang = pickLocale(saved);
  return lang === new Intl.Locale(saved).language ? lang : AUTO;
}

/** A language named in itself ("English", "Português"), by Intl, so no list of names is kept here. @param {string} lang */
function languageName(lang) {
  const name = new Intl.DisplayNames([lang], { type: "language" }).of(lang) ?? lang;
  return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
}

/** The browser's own zone, offered (never saved silently) when the person has none yet. */
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Name, time zone and language: one `entity.profile_updated` on Save. Agents schedule in the
 * zone saved here; coworkers see the name at once.
 * @param {{ s: State }} props
 */
function ProfileFields({ s }) {
  const me = s.me;
  const mine = me ? s.entities[me.entity_id] : undefined;
  const saved = /** @type {any} */ (mine ?? {});
  const [name, setName] = useState(saved.display_name ?? me?.display_name ?? "");
  const [zone, setZone] = useState(saved.time_zone ?? browserZone());
  const [locale, setLocale] = useState(languageChoice(saved.locale));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  if (!me) return null;
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await api.updateProfile({ display_name: name.trim(), time_zone: zone.trim(), locale });
      // The new language at once: every view re-renders in it (the toast already speaks it).
      await loadLocale(locale);
      const cur = getState().me;
      if (cur) setState({ me: { ...cur, display_name: r.display_name } });
      toast(t("profile.saved"));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("profile.error"));
    }
    setBusy(false);
  };
  return html`<form class="modal-form profile-fields" onSubmit=${(/** @type {Event} */ e) => {
    e.preventDefault();
    void save();
  }}>
    <div class="form-field">
      <label for="my_name">${t("profile.name")}</label>
      <input id="my_name" maxlength=${LIMITS.nameChars} required value=${name} onInput=${(/** @type {any} */ e) => setName(e.currentTarget.value)} />
    </div>
    <div class="form-field">
      <label for="my_zone">${t("profile.zone")}</label>
      <input id="my_zone" maxlength=${LIMITS.timeZoneChars} required value=${zone} aria-describedby="my_zone_hint" onInput=${(/** @type {any} */ e) => setZone(e.currentTarget.value)} />
      <p id="my_zone_hint" class="muted small">${saved.time_zone ? t("profile.zone_saved") : t("profile.zone_unsaved", { zone: browserZone() })}</p>
    </div>
    <div class="form-field">
      <label for="my_locale">${t("profile.language")}</label>
      <select id="my_locale" value=${locale} onChange=${(/** @type {any} */ e) => setLocale(e.currentTarget.value)}>
        <option value=${AUTO}>${t("profile.language_auto")}</option>
        ${LOCALES.map((l) => html`<option key=${l} value=${l} lang=${l}>${languageName(l)}</option>`)}
      </select>
    </div>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    <div class="modal-actions"><button type="submit" class="btn btn-primary" disabled=${busy}>${t("profile.save")}</button></div>
  </form>`;
}
