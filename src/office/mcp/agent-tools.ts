import type { EntityProfile } from "../views/office-view.js";
import type { ToolInfo } from "../tools/tool-router.js";
import type { McpToolInfo } from "./hub.js";

type ToolMode = "auto" | "approve" | "off";

/** One tool as an admin sees it for one agent: what it is, what the agent may do with it, and the suggested mode. */
export interface AgentToolView {
  name: string;
  source: "built-in" | "mcp";
  server?: string;
  title?: string;
  description: string;
  annotations: McpToolInfo["annotations"];
  /** What the agent may do now: the admin's choice, else approve for a built-in tool it lists, else off. */
  mode: ToolMode;
  /** True when an admin chose the mode (an agent.tool_mode_set is in the ledger). */
  mode_set: boolean;
  /** What to pick when enabling it: auto only for tools that say they only read. */
  suggested_mode: ToolMode;
  /** The modes this tool accepts (built-in tools always ask first). */
  modes: ToolMode[];
  /** False for a tool with a mode set whose server is not connected now. */
  available: boolean;
}

/**
 * Whether the agent may use a tool now: the mode an admin chose (anything but off), else —
 * with no choice made — whether its registration lists it. The same rule as the policy pack's.
 */
export function mayUse(agent: Pick<EntityProfile, "tool_modes" | "allowed_tools">, name: string): boolean {
  const mode = agent.tool_modes?.[name];
  return mode ? mode !== "off" : agent.allowed_tools.includes(name);
}

/** An MCP tool an agent may use, as the /run form needs it. */
export interface ConversationTool {
  name: string;
  title?: string;
  description: string;
  mode: "auto" | "approve";
  input_schema: Record<string, unknown>;
}

/** The MCP tools `agent` may use now (auto or approve), by name. Pure. */
export function usableTools(agent: EntityProfile, mcpTools: readonly McpToolInfo[]): ConversationTool[] {
  return [...mcpTools]
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((t) => {
      const mode = agent.tool_modes?.[t.name];
      return mode === "auto" || mode === "approve"
        ? [
            {
              name: t.name,
              ...(t.title ? { title: t.title } : {}),
              description: t.description,
              mode,
              input_schema: t.inputSchema,
            },
          ]
        : [];
    });
}

/** Built-in and MCP tools with the agent's modes, built-in first, then by name. Pure. */
export function agentToolsView(
  agent: EntityProfile,
  builtIns: readonly ToolInfo[],
  mcpTools: readonly McpToolInfo[],
): AgentToolView[] {
  const chosen = agent.tool_modes ?? {};
  const modeOf = (name: string, listed: boolean): ToolMode => chosen[name] ?? (listed ? "approve" : "off");
  const out: AgentToolView[] = builtIns
    .filter((t) => t.source !== "mcp")
    .map((t) => ({
      name: t.name,
      source: "built-in",
      description: t.description,
      annotations: { readOnlyHint: !t.side_effects },
      mode: modeOf(t.name, agent.allowed_tools.includes(t.name)),
      mode_set: t.name in chosen,
      suggested_mode: "approve",
      modes: ["approve", "off"],
      available: true,
    }));
  const known = new Set(out.map((t) => t.name));
  for (const t of [...mcpTools].sort((a, b) => a.name.localeCompare(b.name))) {
    known.add(t.name);
    out.push({
      name: t.name,
      source: "mcp",
      server: t.server,
      ...(t.title ? { title: t.title } : {}),
      description: t.description,
      annotations: t.annotations,
      mode: modeOf(t.name, false),
      mode_set: t.name in chosen,
      suggested_mode: t.annotations.readOnlyHint ? "auto" : "approve",
      modes: ["auto", "approve", "off"],
      available: true,
    });
  }
  // A tool an admin allowed whose server is away right now: still listed, so it can be switched off.
  for (const [name, mode] of Object.entries(chosen).sort(([a], [b]) => a.localeCompare(b))) {
    if (known.has(name)) continue;
    const server = name.includes(".") ? name.slice(0, name.indexOf(".")) : undefined;
    out.push({
      name,
      source: "mcp",
      ...(server ? { server } : {}),
      description: "",
      annotations: {},
      mode,
      mode_set: true,
      suggested_mode: "approve",
      modes: ["auto", "approve", "off"],
      available: false,
    });
  }
  return out;
}
