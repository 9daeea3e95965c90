// @ts-check
import { t } from "../i18n.js";
import { dateTime } from "../format.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { ApiError } from "../api.js";
import { adminApi } from "../admin-api.js";
import { toast } from "../store.js";
import { attr, focusWhenDrawn } from "../admin-focus.js";

/** @typedef {{ token_id: string, entity_id: string, display_name: string, created_at: string, last_used_at: string | null }} Token */

/** @param {string | null} iso */
const when = (iso) => (iso ? dateTime(iso) : t("admin.tokens.neverUsed"));

/** Sign-in tokens of the workspace: whose, created, last used; Revoke ends one at once. */
export function AdminTokens() {
  const [tokens, setTokens] = useState(/** @type {Token[] | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const load = () =>
    adminApi.listTokens().then(
      (r) => setTokens(r.tokens),
      (e) => setError(e instanceof ApiError ? e.message : t("admin.tokens.load_error")),
    );
  useEffect(() => void load(), []);
  /** @param {Token} tok */
  const revoke = async (tok) => {
    // The row leaves: focus goes to the next token's Revoke, else the one before, else the heading.
    const list = tokens ?? [];
    const at = list.findIndex((x) => x.token_id === tok.token_id);
    const near = [list[at + 1], list[at - 1]]
      .filter((x) => x !== undefined)
      .map((x) => `[data-token=${attr(x.token_id)}] button`);
    try {
      await adminApi.revokeToken(tok.token_id);
      toast(t("admin.tokens.ended", { name: tok.display_name }));
    } catch (e) {
      toast(
        e instanceof ApiError
          ? t("admin.why", { what: t("admin.tokens.revoke_error"), reason: e.message })
          : t("admin.tokens.revoke_error"),
      );
    }
    await load();
    focusWhenDrawn([...near, "#admin-tokens"]);
  };
  return html`<section class="admin-section" aria-labelledby="admin-tokens">
    <h3 class="section-title" id="admin-tokens" tabIndex="-1">${t("admin.tokens.title")}</h3>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    <table class="admin-table">
      <caption class="visually-hidden">${t("admin.tokens.caption")}</caption>
      <thead><tr><th scope="col">${t("admin.tokens.whose")}</th><th scope="col">${t("admin.tokens.created")}</th><th scope="col">${t("admin.tokens.last_used")}</th><th scope="col"><span class="visually-hidden">${t("admin.tokens.action")}</span></th></tr></thead>
      <tbody>
        ${(tokens ?? []).map(
          (tok, i) => html`<tr key=${tok.token_id} data-token=${tok.token_id}>
            <td>${tok.display_name}</td><td>${when(tok.created_at)}</td><td>${when(tok.last_used_at)}</td>
            <td><button type="button" class="btn btn-ghost btn-small" aria-label=${t("admin.tokens.revoke_label", { name: tok.display_name, n: i + 1 })} onClick=${() => revoke(tok)}>${t("admin.tokens.revoke")}</button></td>
          </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}
