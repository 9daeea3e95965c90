// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { signOut } from "../boot.js";
import { listTime } from "../format.js";
import { toast } from "../store.js";
import { DeviceLink } from "./device-link.js";

/** @typedef {import('../types.js').SessionInfo} SessionInfo */

const VIA = /** @type {Record<string, string>} */ ({
  workspace: "created the workspace",
  invite: "invite link",
  device_link: "link from another device",
  email_link: "link by email",
  admin: "issued by the administrator",
  demo: "demo link",
});

/**
 * Your devices: "Sign in on another device" (a one-time link and QR code), the sessions you
 * hold (this one marked) with End for each, and Sign out.
 */
export function SessionsSection() {
  const [sessions, setSessions] = useState(/** @type {SessionInfo[] | null} */ (null));
  const [link, setLink] = useState(/** @type {{ url: string, expires_at: string, qr_data_url: string } | null} */ (null));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const load = () =>
    api
      .listSessions()
      .then((r) => setSessions(r.sessions))
      .catch(() => setError("Couldn’t load your sessions."));
  useEffect(() => void load(), []);

  const makeLink = async () => {
    setBusy(true);
    setError(null);
    try {
      setLink(await api.createSignInLink());
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Couldn’t make a link. Try again.");
    } finally {
      setBusy(false);
    }
  };
  /** @param {SessionInfo} s */
  const end = async (s) => {
    try {
      await api.endSession(s.session_id);
      toast(`Signed out ${s.device ?? "that device"}`);
      await load();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Couldn’t end that session.");
    }
  };

  return html`<section class="sessions" aria-labelledby="sessions-title">
    <h3 id="sessions-title">Your devices</h3>
    ${
      link
        ? html`<${DeviceLink} link=${link} onDone=${() => {
            setLink(null);
            void load();
          }} />`
        : html`<button type="button" class="btn" disabled=${busy} onClick=${makeLink}>Sign in on another device</button>`
    }
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    ${
      sessions
        ? html`<ul class="session-list" aria-label="Your sessions">
          ${sessions.map(
            (s) => html`<li class="session-row" key=${s.session_id}>
              <div class="session-info">
                <strong>${s.device ?? "Unknown device"}</strong>${s.current ? html` <span class="session-current">This device</span>` : null}
                <span class="small muted">Signed in ${listTime(s.created_at)}${s.signed_in_via && VIA[s.signed_in_via] ? ` · ${VIA[s.signed_in_via]}` : ""}${s.last_seen_at ? ` · last seen ${listTime(s.last_seen_at)}` : ""}</span>
              </div>
              ${
                s.current
                  ? null
                  : html`<button type="button" class="btn btn-ghost" aria-label=${`End the session on ${s.device ?? "an unknown device"}`} onClick=${() => void end(s)}>End</button>`
              }
            </li>`,
          )}
        </ul>`
        : null
    }
    <div class="modal-actions">
      <button type="button" class="btn btn-danger" onClick=${() => void signOut()}>Sign out</button>
    </div>
  </section>`;
}
