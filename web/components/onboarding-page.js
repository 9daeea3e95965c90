// @ts-check
import { html, useState } from "../lib/preact.js";
import { api, ApiError } from "../api.js";
import { copyText, refreshAll } from "../actions.js";
import { boot, signInWith } from "../boot.js";
import { navigate } from "../router.js";

/** @typedef {import('../store.js').State} State */

const CAPABILITIES = ["Scheduling", "Calendar invites", "Email drafts", "Invoices", "Reminders", "Customer follow-ups"];
const STEPS = ["Workspace", "Invite a coworker", "Add an agent coworker"];
/** The built-in tools, and the capabilities that need each: chosen capabilities pick the default tools. */
const TOOLS = [
  { name: "calendar.create_invite", label: "Create calendar invites", for: ["Scheduling", "Calendar invites"] },
  { name: "mail.send", label: "Send email", for: ["Scheduling", "Calendar invites", "Email drafts", "Reminders", "Customer follow-ups", "Invoices"] },
];
/** @param {string[]} caps */
const toolsFor = (caps) => TOOLS.filter((t) => t.for.some((c) => caps.includes(c))).map((t) => t.name);

/** @param {any} e */
const msg = (e) => (e instanceof ApiError ? e.message : "Couldn’t reach the server. Try again.");

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
  const [agent, setAgent] = useState({ name: "Office Scheduler", role: "Scheduler Agent", caps: ["Scheduling", "Calendar invites"] });
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
    if (!ws.name.trim() || !ws.owner.trim()) return setError("Both names are needed.");
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
      const r = await api.createInvite({ ...(inv.name.trim() ? { display_name: inv.name.trim() } : {}), roles: ["member", "job_approver"] });
      const url = /^https?:/.test(r.url) ? r.url : `${location.origin}${r.url.startsWith("/") ? "" : "/"}${r.url}`;
      setInv({ ...inv, url });
    });
  };
  /** @param {Event} e */
  const createAgent = (e) => {
    e.preventDefault();
    if (!agent.name.trim() || !agent.role.trim()) return setError("Give your agent a name and a role.");
    void run(async () => {
      const r = await api.createAgent({ display_name: agent.name.trim(), role: agent.role.trim(), capabilities: agent.caps, allowed_tools: chosenTools });
      const me = (await api.me())?.entity_id ?? s.me?.entity_id;
      let cid;
      try {
        const c = await api.createConversation({ title: agent.name.trim(), participants: [{ entity_id: me }, { entity_id: r.entity_id }] });
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
  const toggleTool = (name) => setTools(chosenTools.includes(name) ? chosenTools.filter((x) => x !== name) : [...chosenTools, name]);
  /** @param {string} c */
  const toggleCap = (c) => setAgent({ ...agent, caps: agent.caps.includes(c) ? agent.caps.filter((x) => x !== c) : [...agent.caps, c] });

  return html`<main class="auth">
    <div class="auth-card auth-card-wide">
      <div class="auth-logo" aria-hidden="true">✦</div>
      <ol class="stepper" aria-label="Onboarding steps">
        ${STEPS.map(
          (t, i) => html`<li key=${t} class=${i === step ? "current" : i < step ? "done" : ""} aria-current=${i === step ? "step" : undefined}>
          <span class="step-n">${i < step ? "✓" : i + 1}</span><span>${t}</span></li>`,
        )}
      </ol>
      ${
        step === 0
          ? html`<form class="modal-form" onSubmit=${createWorkspace}>
        <h1>Create your workspace</h1>
        <p class="auth-lead">One place where your team and your agent coworkers get work done.</p>
        <div class="form-field"><label for="ws-name">Business name</label>
          <input id="ws-name" placeholder="e.g. Acme Plumbing" value=${ws.name} onInput=${(/** @type {any} */ e) => setWs({ ...ws, name: e.currentTarget.value })} /></div>
        <div class="form-field"><label for="ws-owner">Your name</label>
          <input id="ws-owner" autocomplete="name" placeholder="e.g. Dan Rivera" value=${ws.owner} onInput=${(/** @type {any} */ e) => setWs({ ...ws, owner: e.currentTarget.value })} /></div>
        ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
        <button class="btn btn-primary btn-block" type="submit" disabled=${busy || signupClosed}>Create workspace</button>
      </form>`
          : null
      }
      ${
        step === 1
          ? html`<form class="modal-form" onSubmit=${createInvite}>
        <h1>Invite a coworker</h1>
        <p class="auth-lead">Send them a link. They open it, type their name, and they’re in.</p>
        <div class="form-field"><label for="inv-name">Coworker’s name (optional)</label>
          <input id="inv-name" placeholder="e.g. Ana" value=${inv.name} onInput=${(/** @type {any} */ e) => setInv({ ...inv, name: e.currentTarget.value })} /></div>
        ${
          inv.url
            ? html`<div class="invite-link">
          <input readonly aria-label="Invite link" value=${inv.url} onFocus=${(/** @type {any} */ e) => e.currentTarget.select()} />
          <button type="button" class="btn btn-secondary" onClick=${() => void copyText(inv.url)}>Copy link</button></div>`
            : null
        }
        ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
        <div class="modal-actions">
          <button type="button" class=${`btn ${inv.url ? "btn-primary" : "btn-ghost"}`} onClick=${() => {
            setError(null);
            setStep(2);
          }}>${inv.url ? "Next" : "Skip for now"}</button>
          ${inv.url ? null : html`<button class="btn btn-primary" type="submit" disabled=${busy}>Create invite link</button>`}
        </div>
      </form>`
          : null
      }
      ${
        step === 2
          ? html`<form class="modal-form" onSubmit=${createAgent}>
        <h1>Add an agent coworker</h1>
        <p class="auth-lead">Agents propose jobs as cards. Nothing happens until you approve.</p>
        <div class="form-field"><label for="ag-name">Name</label>
          <input id="ag-name" value=${agent.name} onInput=${(/** @type {any} */ e) => setAgent({ ...agent, name: e.currentTarget.value })} /></div>
        <div class="form-field"><label for="ag-role">Role</label>
          <input id="ag-role" placeholder="e.g. Ops Assistant" value=${agent.role} onInput=${(/** @type {any} */ e) => setAgent({ ...agent, role: e.currentTarget.value })} /></div>
        <fieldset class="form-field caps"><legend>Capabilities</legend>
          <div class="chips">${CAPABILITIES.map(
            (c) => html`<label key=${c} class=${`chip chip-toggle${agent.caps.includes(c) ? " on" : ""}`}>
            <input type="checkbox" class="visually-hidden" checked=${agent.caps.includes(c)} onChange=${() => toggleCap(c)} />${c}</label>`,
          )}</div>
        </fieldset>
        <fieldset class="form-field caps"><legend>Tools it may use</legend>
          <p class="muted small" id="ag-tools-help">Picked from its capabilities; it asks before each use. You can change this later in Admin.</p>
          ${TOOLS.map(
            (t) => html`<label key=${t.name} class="admin-check">
            <input type="checkbox" aria-describedby="ag-tools-help" checked=${chosenTools.includes(t.name)} onChange=${() => toggleTool(t.name)} />${t.label}</label>`,
          )}
          ${chosenTools.length === 0 ? html`<p class="notice small" role="status">With no tool it can only chat and hand work to a person.</p>` : null}
        </fieldset>
        ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
        <button class="btn btn-primary btn-block" type="submit" disabled=${busy}>Add agent and start chatting</button>
      </form>`
          : null
      }
    </div>
  </main>`;
}
