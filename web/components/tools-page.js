// @ts-check
import { html, useEffect, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { api, ApiError } from "../api.js";
import { toast } from "../store.js";
import { navigate } from "../router.js";

/** @typedef {{ readOnlyHint?: boolean, destructiveHint?: boolean, idempotentHint?: boolean, openWorldHint?: boolean }} Hints */
/** @typedef {{ name: string, transport: "stdio"|"http", state: "connecting"|"connected"|"failing"|"stopped", error?: string, restarts: number, tools: Array<{ name: string }> }} Server */
/** @typedef {{ name: string, source: "built-in"|"mcp", server?: string, title?: string, description: string, annotations: Hints,
 *   mode: "auto"|"approve"|"off", mode_set: boolean, suggested_mode: "auto"|"approve"|"off", modes: Array<"auto"|"approve"|"off">, available: boolean }} AgentTool */

const STATE = { connected: "Connected", connecting: "Connecting", failing: "Failing", stopped: "Stopped" };
const MODE = { auto: "Runs at once", approve: "Asks first", off: "Off" };

/** @param {Hints} a */
const hints = (a) =>
  [
    a.readOnlyHint ? "only reads" : null,
    a.destructiveHint ? "may overwrite or delete" : null,
    a.idempotentHint ? "safe to repeat" : null,
    a.openWorldHint ? "reaches outside" : null,
  ].filter(Boolean);

/**
 * Tools (admins): the MCP servers — connected or failing and why — and, per agent, what it may
 * do with each tool: runs at once (auto), asks first (approve) or off. Each change is a ledger
 * event the policy pack enforces.
 */
export function ToolsPage() {
  const [servers, setServers] = useState(/** @type {Server[] | null} */ (null));
  const [agents, setAgents] = useState(/** @type {Array<{ entity_id: string, display_name: string }>} */ ([]));
  const [agentId, setAgentId] = useState(/** @type {string | null} */ (null));
  const [tools, setTools] = useState(/** @type {AgentTool[] | null} */ (null));
  const [error, setError] = useState(/** @type {string | null} */ (null));
  /** @param {unknown} err @param {string} what */
  const fail = (err, what) => setError(err instanceof ApiError ? err.message : what);

  const loadServers = () =>
    api.mcpStatus().then(
      (r) => setServers(r.servers),
      (err) => fail(err, "Couldn’t load the servers"),
    );
  useEffect(() => {
    void loadServers();
    api.listEntities().then(
      (r) => {
        const list = (r.items ?? []).filter((/** @type {any} */ e) => e.actor_type === "agent");
        setAgents(list);
        if (list[0]) setAgentId(list[0].entity_id);
      },
      (err) => fail(err, "Couldn’t load the agents"),
    );
  }, []);
  useEffect(() => {
    if (!agentId) return;
    setTools(null);
    api.agentTools(agentId).then(
      (r) => setTools(r.tools),
      (err) => fail(err, "Couldn’t load the agent’s tools"),
    );
  }, [agentId]);

  /** @param {AgentTool} t @param {"auto"|"approve"|"off"} mode */
  const choose = async (t, mode) => {
    if (!agentId) return;
    try {
      const r = await api.setAgentTools(agentId, [{ name: t.name, mode }]);
      setTools(r.tools);
      toast(`${t.name}: ${MODE[mode].toLowerCase()}`);
    } catch (err) {
      toast(err instanceof ApiError ? `Couldn’t save: ${err.message}` : "Couldn’t save");
    }
  };

  /** Enable a whole server for the agent with the suggested modes: auto for tools that only read, approve for the rest. @param {string} server */
  const allowServer = async (server) => {
    if (!agentId || !tools) return;
    const picks = tools.filter((t) => t.source === "mcp" && t.server === server && t.available).map((t) => ({ name: t.name, mode: t.suggested_mode }));
    if (!picks.length) return;
    try {
      const r = await api.setAgentTools(agentId, picks);
      setTools(r.tools);
      toast(`${server}: read-only tools run at once, the others ask first`);
    } catch (err) {
      toast(err instanceof ApiError ? `Couldn’t save: ${err.message}` : "Couldn’t save");
    }
  };
  const serversOfAgentTools = [...new Set((tools ?? []).filter((t) => t.source === "mcp" && t.available && t.server).map((t) => /** @type {string} */ (t.server)))];

  return html`<section class="page" aria-label="Tools">
    <header class="chat-head page-head">
      <button type="button" class="icon-btn back" aria-label="Back" onClick=${() => navigate("/")}><${Icon} name="back" size=${24} /></button>
      <h1>Tools</h1>
      <button type="button" class="btn btn-secondary btn-small" onClick=${loadServers}>Refresh</button>
    </header>
    <div class="page-body">
      ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      <h3 class="section-title">MCP servers</h3>
      ${servers === null && !error ? html`<div class="loading">Loading the servers…</div>` : null}
      ${servers && servers.length === 0 ? html`<p class="notice" role="status">No MCP server is configured. Set MCP_CONFIG to a file listing them (see the README).</p>` : null}
      <ul class="outbox-list tool-servers">
        ${(servers ?? []).map(
          (s) => html`<li key=${s.name} class="outbox-item" data-state=${s.state}>
            <div class="outbox-main">
              <span class=${`pill pill-${s.state === "connected" ? "ok" : s.state === "failing" ? "bad" : "info"}`}>${STATE[s.state] ?? s.state}</span>
              <span class="outbox-subject">${s.name}</span>
              <span class="muted small">${s.transport === "http" ? "Streamable HTTP" : "stdio"} · ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}${s.restarts ? ` · restarted ${s.restarts}×` : ""}</span>
            </div>
            ${s.error ? html`<div class="outbox-answer small"><span class="muted">Why: </span><code>${s.error}</code></div>` : null}
          </li>`,
        )}
      </ul>
      <h3 class="section-title">What an agent may do</h3>
      <label class="field">
        <span>Agent</span>
        <select value=${agentId ?? ""} onChange=${(/** @type {Event} */ e) => setAgentId(/** @type {HTMLSelectElement} */ (e.target).value)}>
          ${agents.map((a) => html`<option key=${a.entity_id} value=${a.entity_id}>${a.display_name}</option>`)}
        </select>
      </label>
      ${agentId && tools === null && !error ? html`<div class="loading">Loading the agent’s tools…</div>` : null}
      <div class="tool-bulk">
        ${serversOfAgentTools.map(
          (name) => html`<button key=${name} type="button" class="btn btn-secondary btn-small" onClick=${() => allowServer(name)}>Allow ${name} (suggested modes)</button>`,
        )}
      </div>
      <ul class="outbox-list agent-tools">
        ${(tools ?? []).map(
          (t) => html`<li key=${t.name} class="outbox-item" data-tool=${t.name}>
            <div class="outbox-main">
              <span class="outbox-subject">${t.name}</span>
              <span class="muted small">${t.source === "built-in" ? "built-in" : `MCP server ${t.server ?? ""}`}${t.available ? "" : " · not connected"}</span>
            </div>
            <div class="outbox-sub small">${(t.title ?? t.description).slice(0, 240)}</div>
            ${hints(t.annotations).length ? html`<div class="muted small">${hints(t.annotations).join(" · ")}</div>` : null}
            <label class="field field-inline">
              <span>Mode</span>
              <select aria-label=${`Mode for ${t.name}`} value=${t.mode} onChange=${(/** @type {Event} */ e) => choose(t, /** @type {any} */ (/** @type {HTMLSelectElement} */ (e.target).value))}>
                ${t.modes.map((m) => html`<option key=${m} value=${m}>${MODE[m]}${m === t.suggested_mode && !t.mode_set ? " (suggested)" : ""}</option>`)}
              </select>
            </label>
          </li>`,
        )}
      </ul>
    </div>
  </section>`;
}
