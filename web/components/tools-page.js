// @ts-check
import { t } from "../i18n.js";
import { html, useEffect, useState } from "../lib/preact.js";
import { Icon } from "./icon.js";
import { api, ApiError } from "../api.js";
import { adminApi } from "../admin-api.js";
import { toast } from "../store.js";
import { navigate } from "../router.js";

/** @typedef {{ readOnlyHint?: boolean, destructiveHint?: boolean, idempotentHint?: boolean, openWorldHint?: boolean }} Hints */
/** @typedef {{ name: string, transport: "stdio"|"http", state: "connecting"|"connected"|"failing"|"stopped", error?: string, restarts: number, tools: Array<{ name: string }> }} Server */
/** @typedef {{ name: string, source: "built-in"|"mcp", server?: string, title?: string, description: string, annotations: Hints,
 *   mode: "auto"|"approve"|"off", mode_set: boolean, suggested_mode: "auto"|"approve"|"off", modes: Array<"auto"|"approve"|"off">, available: boolean }} AgentTool */

const STATES = ["connected", "connecting", "failing", "stopped"];
/** A mode in words: tools.mode.auto, .approve, .off. @param {"auto"|"approve"|"off"} m */
const modeWords = (m) => t(`tools.mode.${m}`);

/** @param {Hints} a */
const hints = (a) =>
  [
    a.readOnlyHint ? t("tools.hint.read_only") : null,
    a.destructiveHint ? t("tools.hint.destructive") : null,
    a.idempotentHint ? t("tools.hint.idempotent") : null,
    a.openWorldHint ? t("tools.hint.open_world") : null,
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
    adminApi.mcpStatus().then(
      (r) => setServers(r.servers),
      (err) => fail(err, t("tools.servers_error")),
    );
  useEffect(() => {
    void loadServers();
    api.listEntities().then(
      (r) => {
        const list = (r.items ?? []).filter((/** @type {any} */ e) => e.actor_type === "agent");
        setAgents(list);
        if (list[0]) setAgentId(list[0].entity_id);
      },
      (err) => fail(err, t("admin.agents.load_error")),
    );
  }, []);
  useEffect(() => {
    if (!agentId) return;
    setTools(null);
    adminApi.agentTools(agentId).then(
      (r) => setTools(r.tools),
      (err) => fail(err, t("tools.agent_tools_error")),
    );
  }, [agentId]);

  /** @param {AgentTool} tool @param {"auto"|"approve"|"off"} mode */
  const choose = async (tool, mode) => {
    if (!agentId) return;
    try {
      const r = await adminApi.setAgentTools(agentId, [{ name: tool.name, mode }]);
      setTools(r.tools);
      toast(t("tools.mode_set", { tool: tool.name, mode: modeWords(mode) }));
    } catch (err) {
      toast(
        err instanceof ApiError
          ? t("admin.why", { what: t("tools.save_error"), reason: err.message })
          : t("tools.save_error"),
      );
    }
  };

  /** Enable a whole server for the agent with the suggested modes: auto for tools that only read, approve for the rest. @param {string} server */
  const allowServer = async (server) => {
    if (!agentId || !tools) return;
    const picks = tools
      .filter((x) => x.source === "mcp" && x.server === server && x.available)
      .map((x) => ({ name: x.name, mode: x.suggested_mode }));
    if (!picks.length) return;
    try {
      const r = await adminApi.setAgentTools(agentId, picks);
      setTools(r.tools);
      toast(t("tools.allowed_server", { server }));
    } catch (err) {
      toast(
        err instanceof ApiError
          ? t("admin.why", { what: t("tools.save_error"), reason: err.message })
          : t("tools.save_error"),
      );
    }
  };
  const serversOfAgentTools = [
    ...new Set(
      (tools ?? [])
        .filter((x) => x.source === "mcp" && x.available && x.server)
        .map((x) => /** @type {string} */ (x.server)),
    ),
  ];

  return html`<section class="page" aria-label=${t("title.tools")}>
    <header class="chat-head page-head">
      <button type="button" class="icon-btn back" aria-label=${t("common.back")} onClick=${() => navigate("/")}><${Icon} name="back" size=${24} /></button>
      <h1>${t("title.tools")}</h1>
      <button type="button" class="btn btn-secondary btn-small" onClick=${loadServers}>${t("outbox.refresh")}</button>
    </header>
    <div class="page-body">
      ${error ? html`<p class="form-error" role="alert">${error}</p>` : null}
      <h3 class="section-title">${t("tools.servers")}</h3>
      ${servers === null && !error ? html`<div class="loading">${t("tools.loading_servers")}</div>` : null}
      ${servers && servers.length === 0 ? html`<p class="notice" role="status">${t("tools.no_server")}</p>` : null}
      <ul class="outbox-list tool-servers">
        ${(servers ?? []).map(
          (s) => html`<li key=${s.name} class="outbox-item" data-state=${s.state}>
            <div class="outbox-main">
              <span class=${`pill pill-${s.state === "connected" ? "ok" : s.state === "failing" ? "bad" : "info"}`}>${STATES.includes(s.state) ? t(`tools.state.${s.state}`) : s.state}</span>
              <span class="outbox-subject">${s.name}</span>
              <span class="muted small">${t("tools.server_line", { transport: s.transport, count: s.tools.length })}${s.restarts ? ` · ${t("tools.restarted", { count: s.restarts })}` : ""}</span>
            </div>
            ${s.error ? html`<div class="outbox-answer small"><span class="muted">${t("tools.why")} </span><code>${s.error}</code></div>` : null}
          </li>`,
        )}
      </ul>
      <h3 class="section-title">${t("tools.agent_may")}</h3>
      <label class="field">
        <span>${t("tools.agent")}</span>
        <select value=${agentId ?? ""} onChange=${(/** @type {Event} */ e) => setAgentId(/** @type {HTMLSelectElement} */ (e.target).value)}>
          ${agents.map((a) => html`<option key=${a.entity_id} value=${a.entity_id}>${a.display_name}</option>`)}
        </select>
      </label>
      ${agentId && tools === null && !error ? html`<div class="loading">${t("tools.loading_agent_tools")}</div>` : null}
      <div class="tool-bulk">
        ${serversOfAgentTools.map(
          (name) =>
            html`<button key=${name} type="button" class="btn btn-secondary btn-small" onClick=${() => allowServer(name)}>${t("tools.allow_server", { server: name })}</button>`,
        )}
      </div>
      <ul class="outbox-list agent-tools">
        ${(tools ?? []).map(
          (tool) => html`<li key=${tool.name} class="outbox-item" data-tool=${tool.name}>
            <div class="outbox-main">
              <span class="outbox-subject">${tool.name}</span>
              <span class="muted small">${tool.source === "built-in" ? t("tools.builtin") : t("tools.mcp_server", { server: tool.server ?? "" })}${tool.available ? "" : ` · ${t("tools.not_connected")}`}</span>
            </div>
            <div class="outbox-sub small">${(tool.title ?? tool.description).slice(0, 240)}</div>
            ${hints(tool.annotations).length ? html`<div class="muted small">${hints(tool.annotations).join(" · ")}</div>` : null}
            <label class="field field-inline">
              <span>${t("tools.mode")}</span>
              <select aria-label=${t("tools.mode_for", { tool: tool.name })} value=${tool.mode} onChange=${(/** @type {Event} */ e) => choose(tool, /** @type {any} */ (/** @type {HTMLSelectElement} */ (e.target).value))}>
                ${tool.modes.map((m) => html`<option key=${m} value=${m}>${m === tool.suggested_mode && !tool.mode_set ? t("tools.mode_suggested", { mode: modeWords(m) }) : modeWords(m)}</option>`)}
              </select>
            </label>
          </li>`,
        )}
      </ul>
    </div>
  </section>`;
}
