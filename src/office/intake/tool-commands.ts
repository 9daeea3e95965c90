import type { TIngestMessageRequest } from "../../../contracts/office.js";
import { pickLocale } from "../../shared/i18n.js";
import type { EntityProfile } from "../context-builder.js";
import type { Draft, EmitContext } from "../emitter.js";
import type { JobEngine } from "../engine/job-engine.js";
import { checkArguments, ledgerArguments } from "../mcp/arguments.js";
import { checkRun, toolsReply } from "../mcp/commands.js";
import type { McpToolInfo } from "../mcp/hub.js";
import * as copy from "../narrator.js";
import type { PlanTool } from "../planner/planner.js";
import { type Locale, localeSlot, words } from "../speak.js";

/**
 * A person's MCP tools in chat: `/tools` and `/run`, a planner's choice of a tool opened as a
 * tool job, and the tools a planner may choose from.
 */
export function createToolCommands(deps: {
  engine: JobEngine;
  emit: (ec: EmitContext, d: Draft[]) => Promise<string[]>;
  /** The connected MCP servers' tools. */
  mcpTools: () => readonly McpToolInfo[];
  /** The language of people whose profile names none (DEFAULT_LOCALE). */
  defaultLocale?: Locale | undefined;
}) {
  const { engine } = deps;

  /**
   * `/tools` and `/run`: answered from the agent's modes and the tools' schemas, never by a
   * planner. A run that passes the checks opens a tool job: started at once when the tool is
   * auto for this agent, else proposed for approval. The exact arguments go to the vault.
   */
  async function command(req: TIngestMessageRequest, sender: EntityProfile, agent: EntityProfile, ec: EmitContext) {
    const tools = deps.mcpTools();
    const t = words(pickLocale(sender.locale, deps.defaultLocale));
    const reply = (text: string) =>
      deps.emit(ec, [engine.textDraft(agent.entity_id, engine.sanitizeText(req.tenant_id, text).text)]);
    if (/^\/tools\b/.test(req.body_text.trim()))
      return { ids: await reply(toolsReply(agent, tools, t)), notes: "Listed tools" };
    const run = checkRun(agent, tools, req.body_text, t);
    if (!run.ok) return { ids: await reply(run.reply), notes: "Tool not run" };
    return open(req, sender, agent, run.tool, run.args, ec);
  }

  /** A checked call becomes a tool job: the exact arguments to the vault, their scrubbed preview to the ledger. */
  async function open(
    req: TIngestMessageRequest,
    sender: EntityProfile,
    agent: EntityProfile,
    tool: McpToolInfo,
    args: Record<string, unknown>,
    ec: EmitContext,
  ) {
    const ref = engine.vaultText(req.tenant_id, JSON.stringify(args));
    const lang = pickLocale(sender.locale, deps.defaultLocale);
    // The tool's own title and description are the server's words, quoted as they come.
    const purpose = copy.toolPurpose(tool.title ?? tool.tool, sender.display_name, tool.description, words(lang));
    const spec = {
      name: tool.name,
      server: tool.server,
      args: ledgerArguments(args, (x) => engine.sanitizeText(req.tenant_id, x).text),
      args_ref: ref,
      purpose,
      ...localeSlot(lang),
    };
    const at = { tenant_id: req.tenant_id, conversation_id: req.conversation_id, trace_id: req.trace_id };
    const r = await engine.open(
      agent,
      { type: "open_tool_job", at, spec, by: { entity_id: sender.entity_id, actor_type: "human" } },
      ec,
    );
    return { ids: r.ids, notes: r.notes ?? "Opened a tool job", job_id: r.job_id };
  }

  /** The MCP tools this agent may call, as a planner sees them. */
  function forPlanner(agent: EntityProfile): PlanTool[] {
    return deps.mcpTools().flatMap((t) => {
      const mode = agent.tool_modes?.[t.name];
      return mode === "auto" || mode === "approve"
        ? [{ name: t.name, description: t.description.slice(0, 1_000), input_schema: t.inputSchema, mode }]
        : [];
    });
  }

  /** A planner's call checked again against what the agent may do now and the tool's schema: the tool, or why not. */
  function checkPlanned(
    agent: EntityProfile,
    name: string,
    args: Record<string, unknown>,
  ): { tool: McpToolInfo; problems: [] } | { tool?: undefined; problems: string[] } {
    const tool = deps.mcpTools().find((t) => t.name === name);
    const mode = tool ? agent.tool_modes?.[tool.name] : undefined;
    const problems = tool ? checkArguments(tool.inputSchema, args) : ["unknown tool"];
    if (!tool || (mode !== "auto" && mode !== "approve") || problems.length) return { problems };
    return { tool, problems: [] };
  }

  return { command, open, forPlanner, checkPlanned };
}
