// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { signOut } from "../boot.js";
import { listTime } from "../format.js";
import { toast } from "../store.js";
import { DeviceLink } from "./device-link.js";

/** @typedef {import('../types.js').SessionInfo} SessionInfo */

/** How a session began, in words (sessions.via.*); an unknown way says nothing. @param {string | null | undefined} via */
const viaText = (via) =>
  via === "passkey"
    ? t("passkeys.via")
    : via && ["workspace", "invite", "device_link", "email_link", "admin", "demo"].includes(via)
      ? t(`sessions.via.${via}`)
      : "";

/**
 * Your devices: "Sign in on another device" (a one-time link and QR code), the sessions you
 * hold (this one marked) with End for each, and Sign out.
 */
export function SessionsSection() {
  const [sessions, setSessions] = useState(/** @type {SessionInfo[] | null} */ (null));
  const [link, setLink] = useState(
    /** @type {{ url: string, expires_at: string, qr_data_url: string } | null} */ (null),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const load = () =>
    api
      .listSessions()
      .then((r) => setSessions(r.sessions))
      .catch(() => setError(t("sessions.load_error")));
  useEffect(() => void load(), []);

  const makeLink = async () => {
    setBusy(true);
    setError(null);
    try {
      setLink(await api.createSignInLink());
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("sessions.link_error"));
    } finally {
      setBusy(false);
    }
  };
  /** @param {SessionInfo} s */
  const end = async (s) => {
    try {
      await api.endSession(s.session_id);
      toast(t("sessions.signed_out", { device: s.device ?? t("sessions.that_device") }));
      await load();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("sessions.end_error"));
    }
  };

  return html`<section class="sessions" aria-labelledby="sessions-title">
    <h3 id="sessions-title">${t("sessions.title")}</h3>
    ${
      link
        ? html`<${DeviceLink} link=${link} onDone=${() => {
            setLink(null);
            void load();
          }} />`
        : html`<button type="button" class="btn" disabled=${busy} onClick=${makeLink}>${t("sessions.other_device")}</button>`
    }
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    ${
      sessions
        ? html`<ul class="session-list" aria-label=${t("sessions.list")}>
          ${sessions.map(
            (s) => html`<li class="session-row" key=${s.session_id}>
              <div class="session-info">
                <strong>${s.device ?? t("sessions.unknown_device")}</strong>${s.current ? html` <span class="session-current">${t("sessions.this_device")}</span>` : null}
                <span class="small muted">${[t("sessions.signed_in", { when: listTime(s.created_at) }), viaText(s.signed_in_via), s.last_seen_at ? t("sessions.last_seen", { when: listTime(s.last_seen_at) }) : ""].filter(Boolean).join(" · ")}</span>
              </div>
              ${
                s.current
                  ? null
                  : html`<button type="button" class="btn btn-ghost" aria-label=${t("sessions.end_label", { device: s.device ?? t("sessions.an_unknown_device") })} onClick=${() => void end(s)}>${t("sessions.end")}</button>`
              }
            </li>`,
          )}
        </ul>`
        : null
    }
    <div class="modal-actions">
      <button type="button" class="btn btn-danger" onClick=${() => void signOut()}>${t("sessions.sign_out")}</button>
    </div>
  </section>`;
}
