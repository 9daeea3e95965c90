// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { confirmDialog } from "../button-flow.js";
import { toast } from "../store.js";
import { AdminLink } from "./admin-link.js";
import { attr, focusWhenDrawn } from "../admin-focus.js";

/** @typedef {{ entity_id: string, display_name: string, access: "owner"|"admin"|"member", roles: string[], status: "active"|"deactivated", joined_at: string }} Member */

const ACCESS = { owner: "Owner", admin: "Admin", member: "Member" };
/** @param {unknown} e @param {string} what */
const why = (e, what) => (e instanceof ApiError ? `${what}: ${e.message}` : what);

/**
 * People and their access: change it, deactivate and reactivate, a new sign-in link, and an
 * invite link for someone new.
 * @param {{ me: string }} props
 */
export function AdminMembers({ me }) {
  const [members, setMembers] = useState(/** @type {Member[] | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [link, setLink] = useState(/** @type {{ who: string, url: string } | null} */ (null));
  const [invite, setInvite] = useState({ name: "", access: "member", url: "" });
  const load = () =>
    api.listMembers().then(
      (r) => setMembers(r.members),
      (e) => setError(why(e, "Couldn’t load the members")),
    );
  useEffect(() => void load(), []);

  /** @param {() => Promise<unknown>} fn @param {string} done @param {string} failed */
  const act = async (fn, done, failed) => {
    try {
      await fn();
      toast(done);
    } catch (e) {
      toast(why(e, failed));
    }
    await load();
  };
  /** @param {Member} m @param {"owner"|"admin"|"member"} access */
  const setAccess = (m, access) =>
    act(() => api.setAccess(m.entity_id, access), `${m.display_name} is now ${ACCESS[access].toLowerCase()}`, `Couldn’t change ${m.display_name}’s access`);
  /** @param {Member} m */
  const deactivate = async (m) => {
    const ok = await confirmDialog({
      title: `Deactivate ${m.display_name}?`,
      body: "They are signed out everywhere at once and can’t sign in until reactivated. Their messages stay.",
      okLabel: "Deactivate",
      danger: true,
    });
    if (ok) await act(() => api.deactivateMember(m.entity_id), `${m.display_name} is deactivated`, `Couldn’t deactivate ${m.display_name}`);
    // Their Deactivate button is gone: focus goes to the Reactivate that replaced it.
    focusWhenDrawn([`[data-member=${attr(m.display_name)}] [data-act="reactivate"]`, `[data-member=${attr(m.display_name)}] [data-act="deactivate"]`]);
  };
  /** @param {Member} m */
  const reactivate = async (m) => {
    await act(
      async () => setLink({ who: m.display_name, url: (await api.reactivateMember(m.entity_id)).signin_url }),
      `${m.display_name} is back: send them the sign-in link`,
      `Couldn’t reactivate ${m.display_name}`,
    );
    // The link to send them, shown once, is what comes next.
    focusWhenDrawn([".admin-members-link input", `[data-member=${attr(m.display_name)}] [data-act="deactivate"]`]);
  };
  /** @param {Member} m */
  const rotate = async (m) => {
    const ok = await confirmDialog({
      title: `New sign-in link for ${m.display_name}?`,
      body: "Every device they are signed in on is signed out now; the new link signs them in again.",
      okLabel: "Sign out and make a link",
      danger: true,
    });
    if (ok)
      await act(
        async () => setLink({ who: m.display_name, url: (await api.rotateTokens(m.entity_id)).signin_url }),
        `${m.display_name} is signed out everywhere`,
        "Couldn’t make a new link",
      );
  };
  /** @param {Event} e */
  const makeInvite = async (e) => {
    e.preventDefault();
    try {
      const roles = invite.access === "admin" ? ["admin", "job_approver"] : ["member", "job_approver"];
      const r = await api.createInvite({ ...(invite.name.trim() ? { display_name: invite.name.trim() } : {}), roles });
      setInvite({ ...invite, url: r.url });
    } catch (err) {
      toast(why(err, "Couldn’t make an invite link"));
    }
  };

  return html`<section class="admin-section" aria-labelledby="admin-members">
    <h3 class="section-title" id="admin-members">Members</h3>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    ${members === null && !error ? html`<div class="loading">Loading the members…</div>` : null}
    ${link ? html`<div class="admin-members-link"><p class="notice" role="status">A sign-in link for ${link.who}, shown once:</p><${AdminLink} label=${`Sign-in link for ${link.who}`} url=${link.url} /></div>` : null}
    <ul class="outbox-list admin-members">
      ${(members ?? []).map(
        (m) => html`<li key=${m.entity_id} class="outbox-item" data-member=${m.display_name}>
          <div class="outbox-main">
            <span class="outbox-subject">${m.display_name}${m.entity_id === me ? " (you)" : ""}</span>
            ${m.status === "deactivated" ? html`<span class="pill pill-bad">Deactivated</span>` : null}
          </div>
          <div class="admin-actions">
            <label class="field field-inline"><span>Access</span>
              <select aria-label=${`Access for ${m.display_name}`} value=${m.access} disabled=${m.status === "deactivated"}
                onChange=${(/** @type {Event} */ e) => setAccess(m, /** @type {any} */ (/** @type {HTMLSelectElement} */ (e.target).value))}>
                ${Object.entries(ACCESS).map(([v, l]) => html`<option key=${v} value=${v}>${l}</option>`)}
              </select></label>
            ${
              m.status === "deactivated"
                ? html`<button type="button" class="btn btn-secondary btn-small" data-act="reactivate" onClick=${() => reactivate(m)}>Reactivate ${m.display_name}</button>`
                : m.entity_id === me
                  ? null
                  : html`<button type="button" class="btn btn-ghost btn-small" onClick=${() => rotate(m)}>New sign-in link for ${m.display_name}</button>
                    <button type="button" class="btn btn-danger btn-small" data-act="deactivate" onClick=${() => deactivate(m)}>Deactivate ${m.display_name}</button>`
            }
          </div>
        </li>`,
      )}
    </ul>
    <form class="admin-invite" onSubmit=${makeInvite}>
      <h4>Invite someone</h4>
      <div class="form-field"><label for="admin-invite-name">Their name (optional)</label>
        <input id="admin-invite-name" value=${invite.name} onInput=${(/** @type {any} */ e) => setInvite({ ...invite, name: e.currentTarget.value, url: "" })} /></div>
      <div class="form-field"><label for="admin-invite-access">Access</label>
        <select id="admin-invite-access" value=${invite.access} onChange=${(/** @type {any} */ e) => setInvite({ ...invite, access: e.currentTarget.value, url: "" })}>
          <option value="member">Member</option><option value="admin">Admin</option>
        </select></div>
      ${invite.url ? html`<${AdminLink} label="Invite link" url=${invite.url} />` : html`<button class="btn btn-primary" type="submit">Create invite link</button>`}
    </form>
  </section>`;
}
