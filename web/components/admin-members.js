// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { adminApi } from "../admin-api.js";
import { confirmDialog } from "../button-flow.js";
import { toast } from "../store.js";
import { AdminLink } from "./admin-link.js";
import { attr, focusWhenDrawn } from "../admin-focus.js";

/** @typedef {{ entity_id: string, display_name: string, access: "owner"|"admin"|"member", roles: string[], status: "active"|"deactivated", joined_at: string }} Member */

const ACCESS = ["owner", "admin", "member"];
/** @param {unknown} e @param {string} what */
const why = (e, what) => (e instanceof ApiError ? t("admin.why", { what, reason: e.message }) : what);

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
    adminApi.listMembers().then(
      (r) => setMembers(r.members),
      (e) => setError(why(e, t("admin.members.load_error"))),
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
    act(
      () => adminApi.setAccess(m.entity_id, access),
      t("admin.members.access_set", { name: m.display_name, access }),
      t("admin.members.access_error", { name: m.display_name }),
    );
  /** @param {Member} m */
  const deactivate = async (m) => {
    const ok = await confirmDialog({
      title: t("admin.members.deactivate_title", { name: m.display_name }),
      body: t("admin.members.deactivate_body"),
      okLabel: t("admin.members.deactivate_ok"),
      danger: true,
    });
    if (ok)
      await act(
        () => adminApi.deactivateMember(m.entity_id),
        t("admin.members.deactivated_toast", { name: m.display_name }),
        t("admin.members.deactivate_error", { name: m.display_name }),
      );
    // Their Deactivate button is gone: focus goes to the Reactivate that replaced it.
    focusWhenDrawn([
      `[data-member=${attr(m.display_name)}] [data-act="reactivate"]`,
      `[data-member=${attr(m.display_name)}] [data-act="deactivate"]`,
    ]);
  };
  /** @param {Member} m */
  const reactivate = async (m) => {
    await act(
      async () => setLink({ who: m.display_name, url: (await adminApi.reactivateMember(m.entity_id)).signin_url }),
      t("admin.members.back", { name: m.display_name }),
      t("admin.members.reactivate_error", { name: m.display_name }),
    );
    // The link to send them, shown once, is what comes next.
    focusWhenDrawn([".admin-members-link input", `[data-member=${attr(m.display_name)}] [data-act="deactivate"]`]);
  };
  /** @param {Member} m */
  const rotate = async (m) => {
    const ok = await confirmDialog({
      title: t("admin.members.rotate_title", { name: m.display_name }),
      body: t("admin.members.rotate_body"),
      okLabel: t("admin.members.rotate_ok"),
      danger: true,
    });
    if (ok)
      await act(
        async () => setLink({ who: m.display_name, url: (await adminApi.rotateTokens(m.entity_id)).signin_url }),
        t("admin.members.rotated", { name: m.display_name }),
        t("admin.members.rotate_error"),
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
      toast(why(err, t("admin.members.invite_error")));
    }
  };

  return html`<section class="admin-section" aria-labelledby="admin-members">
    <h3 class="section-title" id="admin-members">${t("admin.members.title")}</h3>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    ${members === null && !error ? html`<div class="loading">${t("admin.members.loading")}</div>` : null}
    ${link ? html`<div class="admin-members-link"><p class="notice" role="status">${t("admin.members.link_shown", { name: link.who })}</p><${AdminLink} label=${t("admin.members.link_label", { name: link.who })} url=${link.url} /></div>` : null}
    <ul class="outbox-list admin-members">
      ${(members ?? []).map(
        (m) => html`<li key=${m.entity_id} class="outbox-item" data-member=${m.display_name}>
          <div class="outbox-main">
            <span class="outbox-subject">${m.entity_id === me ? t("admin.members.you", { name: m.display_name }) : m.display_name}</span>
            ${m.status === "deactivated" ? html`<span class="pill pill-bad">${t("admin.members.deactivated")}</span>` : null}
          </div>
          <div class="admin-actions">
            <label class="field field-inline"><span>${t("admin.members.access")}</span>
              <select aria-label=${t("admin.members.access_for", { name: m.display_name })} value=${m.access} disabled=${m.status === "deactivated"}
                onChange=${(/** @type {Event} */ e) => setAccess(m, /** @type {any} */ (/** @type {HTMLSelectElement} */ (e.target).value))}>
                ${ACCESS.map((v) => html`<option key=${v} value=${v}>${t(`admin.access.${v}`)}</option>`)}
              </select></label>
            ${
              m.status === "deactivated"
                ? html`<button type="button" class="btn btn-secondary btn-small" data-act="reactivate" onClick=${() => reactivate(m)}>${t("admin.members.reactivate", { name: m.display_name })}</button>`
                : m.entity_id === me
                  ? null
                  : html`<button type="button" class="btn btn-ghost btn-small" onClick=${() => rotate(m)}>${t("admin.members.rotate", { name: m.display_name })}</button>
                    <button type="button" class="btn btn-danger btn-small" data-act="deactivate" onClick=${() => deactivate(m)}>${t("admin.members.deactivate", { name: m.display_name })}</button>`
            }
          </div>
        </li>`,
      )}
    </ul>
    <form class="admin-invite" onSubmit=${makeInvite}>
      <h4>${t("admin.members.invite_title")}</h4>
      <div class="form-field"><label for="admin-invite-name">${t("admin.members.invite_name")}</label>
        <input id="admin-invite-name" value=${invite.name} onInput=${(/** @type {any} */ e) => setInvite({ ...invite, name: e.currentTarget.value, url: "" })} /></div>
      <div class="form-field"><label for="admin-invite-access">${t("admin.members.access")}</label>
        <select id="admin-invite-access" value=${invite.access} onChange=${(/** @type {any} */ e) => setInvite({ ...invite, access: e.currentTarget.value, url: "" })}>
          <option value="member">${t("admin.access.member")}</option><option value="admin">${t("admin.access.admin")}</option>
        </select></div>
      ${invite.url ? html`<${AdminLink} label=${t("onboarding.inv_link")} url=${invite.url} />` : html`<button class="btn btn-primary" type="submit">${t("onboarding.inv_submit")}</button>`}
    </form>
  </section>`;
}
