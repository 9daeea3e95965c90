// @ts-check
import { t } from "../i18n.js";
import { html, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { copyText, refreshAll } from "../actions.js";
import { boot, signInWith } from "../boot.js";
import { navigate } from "../router.js";

/** @typedef {import('../store.js').State} State */

const CAPABILITIES = ["Scheduling", "Calendar invites", "Email drafts", "Invoices", "Reminders", "Customer follow-ups"];
/** Capabilities are saved as these English names (the agent's planner reads them); people read them in their language. */
const CAP_KEY = /** @type {Record<string, string>} */ ({
  Scheduling: "scheduling",
  "Calendar invites": "calendar_invites",
  "Email drafts": "email_drafts",
  Invoices: "invoices",
  Reminders: "reminders",
  "Customer follow-ups": "customer_follow_ups",
});
const STEPS = ["workspace", "invite", "agent"];
/** The built-in tools, and the capabilities that need each: chosen capabilities pick the default tools. */
const TOOLS = [
  { name: "calendar.create_invite", label: "onboarding.tool.calendar", for: ["Scheduling", "Calendar invites"] },
  {
    name: "mail.send",
    label: "onboarding.tool.mail",
    for: ["Scheduling", "Calendar invites", "Email drafts", "Reminders", "Customer follow-ups", "Invoices"],
  },
];
/** @param {string[]} caps */
const toolsFor = (caps) => TOOLS.filter((tool) => tool.for.some((c) => caps.includes(c))).map((tool) => tool.name);

/** @param {any} e */
const msg = (e) => (e instanceof ApiError ? e.message : t("common.server_unreachable"));

/**
 * Create workspace → invite coworker (a link to copy) → add agent coworker. No terminal.
 * @param {{ s: State }} props
 */
export function OnboardingPage({ s }) {
  const startAtAgent = new URLSearchParams(location.search).get("step") === "agent" && !!s.me;
  const [step, setStep] = useState(startAtAgent ? 2 : s.me ? 1 : 0);
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  // The server takes no new workspaces (SIGNUP): its message says what to do, and retrying can't help.
  const [signupClosed, setSignupClosed] = useState(false);
  const [ws, setWs] = useState({ name: "", owner: "" });
  const [inv, setInv] = useState({ name: "", url: "" });
  const [agent, setAgent] = useState({
    name: "Office Scheduler",
    role: "Scheduler Agent",
    caps: ["Scheduling", "Calendar invites"],
  });
  // The tools follow the capabilities until the person picks them by hand.
  const [tools, setTools] = useState(/** @type {string[] | null} */ (null));
  const chosenTools = tools ?? toolsFor(agent.caps);

  /** @param {() => Promise<void>} fn */
  const run = async (fn) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(msg(e));
      if (e instanceof ApiError && e.code === "SIGNUP_CLOSED") setSignupClosed(true);
    } finally {
      setBusy(false);
    }
  };
  /** @param {Event} e */
  const createWorkspace = (e) => {
    e.preventDefault();
    if (!ws.name.trim() || !ws.owner.trim()) return setError(t("onboarding.both_names"));
    void run(async () => {
      const r = await api.createWorkspace({ name: ws.name.trim(), owner: { display_name: ws.owner.trim() } });
      await signInWith(r.token);
      setStep(1);
    });
  };
  /** @param {Event} e */
  const createInvite = (e) => {
    e.preventDefault();
    void run(async () => {
      const r = await api.createInvite({
        ...(inv.name.trim() ? { display_name: inv.name.trim() } : {}),
        roles: ["member", "job_approver"],
      });
      const url = /^https?:/.test(r.url) ? r.url : `${location.origin}${r.url.startsWith("/") ? "" : "/"}${r.url}`;
      setInv({ ...inv, url });
    });
  };
  /** @param {Event} e */
  const createAgent = (e) => {
    e.preventDefault();
    if (!agent.name.trim() || !agent.role.trim()) return setError(t("onboarding.agent_needs"));
    void run(async () => {
      const r = await api.createAgent({
        display_name: agent.name.trim(),
        role: agent.role.trim(),
        capabilities: agent.caps,
        allowed_tools: chosenTools,
      });
      const me = (await api.me())?.entity_id ?? s.me?.entity_id;
      let cid;
      try {
        const c = await api.createConversation({
          title: agent.name.trim(),
          participants: [{ entity_id: me }, { entity_id: r.entity_id }],
        });
        cid = c.conversation_id;
      } catch {
        cid = null;
      }
      await refreshAll();
      navigate(cid ? `/c/${encodeURIComponent(cid)}` : "/");
      await boot();
    });
  };
  /** @param {string} name */
  const toggleTool = (name) =>
    setTools(chosenTools.includes(name) ? chosenTools.filter((x) => x !== name) : [...chosenTools, name]);
  /** @param {string} c */
  const toggleCap = (c) =>
    setAgent({ ...agent, caps: agent.caps.includes(c) ? agent.caps.filter((x) => x !== c) : [...agent.caps, c] });

  return html`<main class="auth">
    <div class="auth-card auth-card-wide">
      <div class="auth-logo" aria-hidden="true">✦</div>
      <ol class="stepper" aria-label=${t("onboarding.steps")}>
        ${STEPS.map(
          (
            name,
            i,
          ) => html`<li key=${name} class=${i === step ? "current" : i < step ? "done" : ""} aria-current=${i === step ? "step" : undefined}>
          <span class="step-n">${i < step ? "✓" : i + 1}</span><span>${t(`onboarding.step.${name}`)}</span></li>`,
        )}
      </ol>
      ${
        step === 0
          ? html`<form class="modal-form" onSubmit=${createWorkspace}>
        <h1>${t("onboarding.ws_title")}</h1>
        <p class="auth-lead">${t("onboarding.ws_lead")}</p>
        <div class="form-field"><label for="ws-name">${t("onboarding.ws_name")}</label>
          <input id="ws-name" placeholder=${t("onboarding.ws_name_placeholder")} value=${ws.name} onInput=${(/** @type {any} */ e) => setWs({ ...ws, name: e.currentTarget.value })} /></div>
        <div class="form-field"><label for="ws-owner">${t("invite.name")}</label>
          <input id="ws-owner" autocomplete="name" placeholder=${t("onboarding.owner_placeholder")} value=${ws.owner} onInput=${(/** @type {any} */ e) => setWs({ ...ws, owner: e.currentTarget.value })} /></div>
        ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
        <button class="btn btn-primary btn-block" type="submit" disabled=${busy || signupClosed}>${t("onboarding.ws_submit")}</button>
      </form>`
          : null
      }
      ${
        step === 1
          ? html`<form class="modal-form" onSubmit=${createInvite}>
        <h1>${t("onboarding.step.invite")}</h1>
        <p class="auth-lead">${t("onboarding.inv_lead")}</p>
        <div class="form-field"><label for="inv-name">${t("onboarding.inv_name")}</label>
          <input id="inv-name" placeholder=${t("onboarding.inv_name_placeholder")} value=${inv.name} onInput=${(/** @type {any} */ e) => setInv({ ...inv, name: e.currentTarget.value })} /></div>
        ${
          inv.url
            ? html`<div class="invite-link">
          <input readonly aria-label=${t("onboarding.inv_link")} value=${inv.url} onFocus=${(/** @type {any} */ e) => e.currentTarget.select()} />
          <button type="button" class="btn btn-secondary" onClick=${() => void copyText(inv.url)}>${t("common.copy_link")}</button></div>`
            : null
        }
        ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
        <div class="modal-actions">
          <button type="button" class=${`btn ${inv.url ? "btn-primary" : "btn-ghost"}`} onClick=${() => {
            setError(null);
            setStep(2);
          }}>${inv.url ? t("onboarding.next") : t("onboarding.skip")}</button>
          ${inv.url ? null : html`<button class="btn btn-primary" type="submit" disabled=${busy}>${t("onboarding.inv_submit")}</button>`}
        </div>
      </form>`
          : null
      }
      ${
        step === 2
          ? html`<form class="modal-form" onSubmit=${createAgent}>
        <h1>${t("onboarding.step.agent")}</h1>
        <p class="auth-lead">${t("onboarding.agent_lead")}</p>
        <div class="form-field"><label for="ag-name">${t("onboarding.agent_name")}</label>
          <input id="ag-name" value=${agent.name} onInput=${(/** @type {any} */ e) => setAgent({ ...agent, name: e.currentTarget.value })} /></div>
        <div class="form-field"><label for="ag-role">${t("onboarding.agent_role")}</label>
          <input id="ag-role" placeholder=${t("onboarding.agent_role_placeholder")} value=${agent.role} onInput=${(/** @type {any} */ e) => setAgent({ ...agent, role: e.currentTarget.value })} /></div>
        <fieldset class="form-field caps"><legend>${t("onboarding.caps")}</legend>
          <div class="chips">${CAPABILITIES.map(
            (c) => html`<label key=${c} class=${`chip chip-toggle${agent.caps.includes(c) ? " on" : ""}`}>
            <input type="checkbox" class="visually-hidden" checked=${agent.caps.includes(c)} onChange=${() => toggleCap(c)} />${CAP_KEY[c] ? t(`onboarding.cap.${CAP_KEY[c]}`) : c}</label>`,
          )}</div>
        </fieldset>
        <fieldset class="form-field caps"><legend>${t("onboarding.tools")}</legend>
          <p class="muted small" id="ag-tools-help">${t("onboarding.tools_help")}</p>
          ${TOOLS.map(
            (tool) => html`<label key=${tool.name} class="admin-check">
            <input type="checkbox" aria-describedby="ag-tools-help" checked=${chosenTools.includes(tool.name)} onChange=${() => toggleTool(tool.name)} />${t(tool.label)}</label>`,
          )}
          ${chosenTools.length === 0 ? html`<p class="notice small" role="status">${t("onboarding.no_tools")}</p>` : null}
        </fieldset>
        ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
        <button class="btn btn-primary btn-block" type="submit" disabled=${busy}>${t("onboarding.agent_submit")}</button>
      </form>`
          : null
      }
    </div>
  </main>`;
}
