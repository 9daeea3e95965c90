// @ts-check
import { LIMITS } from "../lib/facts.js";
import { html, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { getState, setState, toast } from "../store.js";
import { ModalFrame } from "./modal-frame.js";
import { DigestSetting, ProfilePicture } from "./profile-picture.js";
import { SessionsSection } from "./sessions-section.js";
import { ThemeSwitch } from "./theme-switch.js";

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
      toast(value ? "Email saved" : "Email removed");
      close();
    } catch (err) {
      setBusy(false);
      setError(err instanceof ApiError ? err.message : "Couldn’t save your email");
    }
  };

  return html`<${ModalFrame} title="Your profile" onClose=${close}>
    <${ProfilePicture} s=${s} />
    <${ProfileFields} s=${s} />
    <form class="modal-form" onSubmit=${(/** @type {Event} */ e) => {
      e.preventDefault();
      if (email.trim()) void save(email.trim());
    }}>
      <p><strong>${me.display_name}</strong>${me.roles?.length ? html` <span class="muted small">· ${me.roles.join(", ")}</span>` : null}</p>
      <p class="muted small">${me.email ? html`Your email on file: <strong>${me.email}</strong>.` : "No email on file."} Meeting invites you ask an agent for are sent to you too. The address itself is kept in the encrypted vault for the agents to use; coworkers see at most its masked form (like d***@acme.com).</p>
      <div class="form-field">
        <label for="my_email">Your email</label>
        <input id="my_email" type="email" autocomplete="email" maxlength=${LIMITS.emailChars} required value=${email}
          onInput=${(/** @type {any} */ e) => setEmail(e.currentTarget.value)} />
      </div>
      ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      <div class="modal-actions">
        ${me.email ? html`<button type="button" class="btn btn-ghost" disabled=${busy} onClick=${() => save(null)}>Remove my email</button>` : null}
        <button type="submit" class="btn btn-primary" disabled=${busy}>Save</button>
      </div>
    </form>
    <${DigestSetting} s=${s} />
    <${SessionsSection} />
    <${ThemeSwitch} />
  <//>`;
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
  const [locale, setLocale] = useState(saved.locale ?? navigator.language);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  if (!me) return null;
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await api.updateProfile({ display_name: name.trim(), time_zone: zone.trim(), locale: locale.trim() });
      const cur = getState().me;
      if (cur) setState({ me: { ...cur, display_name: r.display_name } });
      toast("Profile saved");
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Couldn’t save your profile");
    }
    setBusy(false);
  };
  return html`<form class="modal-form profile-fields" onSubmit=${(/** @type {Event} */ e) => {
    e.preventDefault();
    void save();
  }}>
    <div class="form-field">
      <label for="my_name">Display name</label>
      <input id="my_name" maxlength=${LIMITS.nameChars} required value=${name} onInput=${(/** @type {any} */ e) => setName(e.currentTarget.value)} />
    </div>
    <div class="form-field">
      <label for="my_zone">Time zone</label>
      <input id="my_zone" maxlength=${LIMITS.timeZoneChars} required value=${zone} aria-describedby="my_zone_hint" onInput=${(/** @type {any} */ e) => setZone(e.currentTarget.value)} />
      <p id="my_zone_hint" class="muted small">${saved.time_zone ? "Agents schedule meetings you ask for in this zone." : `Not saved yet — this browser says ${browserZone()}. Agents schedule in the zone you save.`}</p>
    </div>
    <div class="form-field">
      <label for="my_locale">Language</label>
      <input id="my_locale" maxlength=${LIMITS.localeChars} required value=${locale} onInput=${(/** @type {any} */ e) => setLocale(e.currentTarget.value)} />
    </div>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    <div class="modal-actions"><button type="submit" class="btn btn-primary" disabled=${busy}>Save profile</button></div>
  </form>`;
}
