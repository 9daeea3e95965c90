// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { toast } from "../store.js";

/** @typedef {{ token_id: string, entity_id: string, display_name: string, created_at: string, last_used_at: string | null }} Token */

/** @param {string | null} iso */
const when = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "Not since the server started");

/** Sign-in tokens of the workspace: whose, created, last used; Revoke ends one at once. */
export function AdminTokens() {
  const [tokens, setTokens] = useState(/** @type {Token[] | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const load = () =>
    api.listTokens().then(
      (r) => setTokens(r.tokens),
      (e) => setError(e instanceof ApiError ? e.message : "Couldn’t load the tokens"),
    );
  useEffect(() => void load(), []);
  /** @param {Token} t */
  const revoke = async (t) => {
    try {
      await api.revokeToken(t.token_id);
      toast(`${t.display_name}’s sign-in ended`);
    } catch (e) {
      toast(e instanceof ApiError ? `Couldn’t revoke: ${e.message}` : "Couldn’t revoke");
    }
    await load();
  };
  return html`<section class="admin-section" aria-labelledby="admin-tokens">
    <h3 class="section-title" id="admin-tokens">Sign-in tokens</h3>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    <table class="admin-table">
      <caption class="visually-hidden">Sign-in tokens: whose, created, last used</caption>
      <thead><tr><th scope="col">Whose</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
      <tbody>
        ${(tokens ?? []).map(
          (t, i) => html`<tr key=${t.token_id} data-token=${t.token_id}>
            <td>${t.display_name}</td><td>${when(t.created_at)}</td><td>${when(t.last_used_at)}</td>
            <td><button type="button" class="btn btn-ghost btn-small" aria-label=${`Revoke ${t.display_name}’s token ${i + 1}`} onClick=${() => revoke(t)}>Revoke</button></td>
          </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}
