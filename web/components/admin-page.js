// @ts-check
import { t } from "../i18n.js";
import { html } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { navigate } from "../router.js";
import { AdminMembers } from "./admin-members.js";
import { AdminAgents } from "./admin-agents.js";
import { AdminTokens } from "./admin-tokens.js";
import { AdminPolicies } from "./admin-policies.js";

/** @typedef {import('../store.js').State} State */

/** @param {{ href: string, label: string }} props */
function PageLink({ href, label }) {
  return html`<a class="btn btn-secondary btn-small" href=${href} onClick=${(/** @type {Event} */ e) => {
    e.preventDefault();
    navigate(href);
  }}>${label}</a>`;
}

/**
 * Admin (owners and admins): members and their access, invites, agents, sign-in tokens, and the
 * Outbox and Tools screens. Every change is a ledger event the policy pack judges.
 * @param {{ s: State }} props
 */
export function AdminPage({ s }) {
  return html`<section class="page admin-page" aria-labelledby="admin-title">
    <header class="chat-head page-head">
      <button type="button" class="icon-btn back" aria-label=${t("common.back")} onClick=${() => navigate("/")}><${Icon} name="back" size=${24} /></button>
      <h2 id="admin-title">${t("admin.title")}</h2>
      <nav class="admin-links" aria-label=${t("admin.more")}>
        <${PageLink} href="/outbox" label=${t("title.outbox")} />
        <${PageLink} href="/tools" label=${t("title.tools")} />
      </nav>
    </header>
    <div class="page-body">
      <${AdminMembers} me=${s.me?.entity_id ?? ""} />
      <${AdminAgents} />
      <${AdminTokens} />
      <${AdminPolicies} />
    </div>
  </section>`;
}
