// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { toast } from "../store.js";
import { attr, focusWhenDrawn } from "../admin-focus.js";
import { dateFormat, t as tr } from "../i18n.js";

/** @typedef {{ token_id: string, entity_id: string, display_name: string, created_at: string, last_used_at: string | null }} Token */

/** @param {string | null} iso */
const when = (iso) => (iso ? dateFormat({ dateStyle: "medium", timeStyle: "short" }).format(new Date(iso)) : tr("admin.tokens.neverUsed"));

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
    // The row leaves: focus goes to the next token's Revoke, else the one before, else the heading.
    const list = tokens ?? [];
    const at = list.findIndex((x) => x.token_id === t.token_id);
    const near = [list[at + 1], list[at - 1]].filter((x) => x !== undefined).map((x) => `[data-token=${attr(x.token_id)}] button`);
    try {
      await api.revokeToken(t.token_id);
      toast(`${t.display_name}’s sign-in ended`);
    } catch (e) {
      toast(e instanceof ApiError ? `Couldn’t revoke: ${e.message}` : "Couldn’t revoke");
    }
    await load();
    focusWhenDrawn([...near, "#admin-tokens"]);
  };
  return html`<section class="admin-section" aria-labelledby="admin-tokens">
    <h3 class="section-title" id="admin-tokens" tabIndex="-1">Sign-in tokens</h3>
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
