// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useLayoutEffect, useRef, useState } from "../lib/preact.js";
import { ApiError } from "../api.js";
import { adminApi } from "../admin-api.js";
import { confirmDialog } from "../button-flow.js";
import { toast } from "../store.js";
import { attr, focusWhenDrawn } from "../admin-focus.js";

/** @typedef {{ entity_id: string, display_name: string, role: string | null, capabilities: string[], allowed_tools: string[], status: "active"|"paused" }} Agent */

/** @param {unknown} e @param {string} what */
const why = (e, what) => (e instanceof ApiError ? t("admin.why", { what, reason: e.message }) : what);
const list = (/** @type {string} */ text) =>
  text
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * One agent: its role, capabilities and the tools it may use (every tool it could use is
 * listed), saved together; pause, resume and remove.
 * @param {{ a: Agent, reload: () => Promise<void> }} props
 */
function AgentItem({ a, reload }) {
  const [role, setRole] = useState(a.role ?? "");
  const [caps, setCaps] = useState(a.capabilities.join(", "));
  const [tools, setTools] = useState(
    /** @type {Array<{ name: string, description: string, source: string }> | null} */ (null),
  );
  const [allowed, setAllowed] = useState(a.allowed_tools);
  // What the server says now (after a save, a pause, a change elsewhere) replaces the form's
  // values in place: the item is not redrawn, so focus and the loaded tool list stay put. A field
  // the person has changed since the form last matched the server (or since they saved) keeps
  // their change: an answer that arrives late never undoes what they did meanwhile. The check runs
  // as a layout effect, in the same task as the render: a deferred effect would compare the form
  // as it was drawn, and a key pressed between the two would be undone.
  const form = { role, caps, allowed: [...allowed].sort().join(" ") };
  const base = useRef(form);
  const saved = JSON.stringify([a.role, a.capabilities, a.allowed_tools, a.status]);
  useLayoutEffect(() => {
    const next = {
      role: a.role ?? "",
      caps: a.capabilities.join(", "),
      allowed: [...a.allowed_tools].sort().join(" "),
    };
    if (form.role === base.current.role) setRole(next.role);
    if (form.caps === base.current.caps) setCaps(next.caps);
    if (form.allowed === base.current.allowed) setAllowed(a.allowed_tools);
    base.current = {
      role: form.role === base.current.role ? next.role : base.current.role,
      caps: form.caps === base.current.caps ? next.caps : base.current.caps,
      allowed: form.allowed === base.current.allowed ? next.allowed : base.current.allowed,
    };
  }, [saved]);
  useEffect(() => {
    adminApi.agentTools(a.entity_id).then(
      (r) => setTools(r.tools),
      () => setTools([]),
    );
  }, [a.entity_id]);
  const id = (/** @type {string} */ part) => `agent-${a.entity_id}-${part}`;
  const here = `[data-agent=${attr(a.display_name)}]`;
  /** @param {string} name */
  const toggle = (name) => setAllowed((now) => (now.includes(name) ? now.filter((x) => x !== name) : [...now, name]));
  /** @param {Event} e */
  const save = async (e) => {
    e.preventDefault();
    const began = document.activeElement;
    base.current = form;
    try {
      await adminApi.updateAgent(a.entity_id, {
        ...(role.trim() ? { role: role.trim() } : {}),
        capabilities: list(caps),
        allowed_tools: allowed,
      });
      toast(t("admin.agents.saved", { name: a.display_name }));
    } catch (err) {
      toast(why(err, t("admin.agents.save_error", { name: a.display_name })));
    }
    await reload();
    focusWhenDrawn([`${here} [data-act="save"]`], began);
  };
  const pause = async () => {
    const began = document.activeElement;
    try {
      await adminApi.setAgentPaused(a.entity_id, a.status !== "paused");
      toast(t(a.status === "paused" ? "admin.agents.resumed" : "admin.agents.paused_toast", { name: a.display_name }));
    } catch (err) {
      toast(why(err, t("admin.agents.change_error")));
    }
    await reload();
    // Pause becomes Resume (and back): the same place, the new label.
    focusWhenDrawn([`${here} [data-act="pause"]`], began);
  };
  const remove = async () => {
    const ok = await confirmDialog({
      title: t("admin.agents.remove_title", { name: a.display_name }),
      body: t("admin.agents.remove_body"),
      okLabel: t("admin.agents.remove_ok"),
      danger: true,
    });
    if (!ok) return;
    try {
      await adminApi.removeAgent(a.entity_id);
      toast(t("admin.agents.removed", { name: a.display_name }));
    } catch (err) {
      toast(why(err, t("admin.agents.remove_error")));
    }
    await reload();
    focusWhenDrawn([`${here} [data-act="remove"]`, "#admin-agents"]);
  };
  return html`<li class="outbox-item" data-agent=${a.display_name}>
    <div class="outbox-main">
      <span class="outbox-subject">${a.display_name}</span>
      ${a.status === "paused" ? html`<span class="pill pill-info">${t("admin.agents.paused")}</span>` : null}
    </div>
    <form class="admin-agent" onSubmit=${save} aria-label=${t("admin.agents.edit", { name: a.display_name })}>
      <div class="form-field"><label for=${id("role")}>${t("admin.agents.role")}</label>
        <input id=${id("role")} value=${role} onInput=${(/** @type {any} */ e) => setRole(e.currentTarget.value)} /></div>
      <div class="form-field"><label for=${id("caps")}>${t("admin.agents.caps")}</label>
        <input id=${id("caps")} value=${caps} onInput=${(/** @type {any} */ e) => setCaps(e.currentTarget.value)} /></div>
      <fieldset class="form-field"><legend>${t("admin.agents.tools")}</legend>
        ${tools === null ? html`<div class="loading">${t("admin.agents.loading_tools")}</div>` : null}
        ${(tools ?? []).map(
          (tool) => html`<label key=${tool.name} class="admin-check">
            <input type="checkbox" value=${tool.name} checked=${allowed.includes(tool.name)} onChange=${() => toggle(tool.name)} />
            <span>${tool.name}</span> <span class="muted small">${tool.source === "built-in" ? t("admin.agents.builtin") : t("admin.agents.mcp")}</span></label>`,
        )}
      </fieldset>
      <div class="admin-actions">
        <button class="btn btn-primary btn-small" type="submit" data-act="save">${t("admin.agents.save", { name: a.display_name })}</button>
        <button type="button" class="btn btn-secondary btn-small" data-act="pause" onClick=${pause}>${t(a.status === "paused" ? "admin.agents.resume" : "admin.agents.pause", { name: a.display_name })}</button>
        <button type="button" class="btn btn-danger btn-small" data-act="remove" onClick=${remove}>${t("admin.agents.remove", { name: a.display_name })}</button>
      </div>
    </form>
  </li>`;
}

/** The workspace's agents. */
export function AdminAgents() {
  const [agents, setAgents] = useState(/** @type {Agent[] | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const load = () =>
    adminApi.listAdminAgents().then(
      (r) => setAgents(r.agents),
      (e) => setError(why(e, t("admin.agents.load_error"))),
    );
  useEffect(() => void load(), []);
  return html`<section class="admin-section" aria-labelledby="admin-agents">
    <h3 class="section-title" id="admin-agents" tabIndex="-1">${t("admin.agents.title")}</h3>
    ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
    ${agents && agents.length === 0 ? html`<p class="notice">${t("admin.agents.none")}</p>` : null}
    <ul class="outbox-list admin-agents">
      ${(agents ?? []).map((a) => html`<${AgentItem} key=${a.entity_id} a=${a} reload=${load} />`)}
    </ul>
  </section>`;
}
