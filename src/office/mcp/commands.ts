import type { EntityProfile } from "../office-view.js";
import { argumentFields, checkArguments, parseRunCommand, readArguments } from "./arguments.js";
import type { McpToolInfo } from "./hub.js";

/**
 * `/tools` and `/run <tool> …` in a chat with an agent: what it can do with MCP tools, and a
 * request to run one. Pure: the agent's modes and the connected tools come in, a reply or a
 * checked request goes out. Nothing is proposed for a tool the agent may not use or for
 * arguments that do not fit the tool's input schema.
 */

const MODE_WORDS = { auto: "runs at once", approve: "asks you first" } as const;

export const isToolCommand = (text: string) => /^\/(tools|run)(\s|$)/.test(text.trim());

function usable(agent: EntityProfile, tools: readonly McpToolInfo[]) {
  return tools.filter((t) => {
    const m = agent.tool_modes?.[t.name];
    return m === "auto" || m === "approve";
  });
}

function usage(t: McpToolInfo): string {
  const fields = argumentFields(t.inputSchema);
  const args = fields.map((f) => `${f.key}=${f.type}${f.required ? "" : "?"}`).join(" ");
  return `/run ${t.name}${args ? ` ${args}` : ""}`;
}

/** The reply to `/tools`. */
export function toolsReply(agent: EntityProfile, tools: readonly McpToolInfo[]): string {
  const mine = usable(agent, tools);
  if (!mine.length) return `${agent.display_name} has no tools from MCP servers yet. An admin can allow some (auto or approve) in the agent's tool settings.`;
  const lines = mine.map(
    (t) => `• ${t.name} — ${MODE_WORDS[agent.tool_modes![t.name] as "auto" | "approve"]}. ${(t.title ?? t.description).split(/(?<=\.)\s/)[0]!.slice(0, 140)}\n  ${usage(t)}`,
  );
  return `What I can do with tools:\n${lines.join("\n")}`.slice(0, 3_900);
}

/** A `/run` request checked against the agent's modes and the tool's input schema. */
export function checkRun(
  agent: EntityProfile,
  tools: readonly McpToolInfo[],
  text: string,
): { ok: false; reply: string } | { ok: true; tool: McpToolInfo; args: Record<string, unknown> } {
  const cmd = parseRunCommand(text);
  if (!cmd?.tool) return { ok: false, reply: "Say which tool: /run <tool> key=value … (/tools lists them)." };
  const tool = tools.find((t) => t.name === cmd.tool);
  const mode = agent.tool_modes?.[cmd.tool];
  if (!tool) {
    return {
      ok: false,
      reply:
        mode && mode !== "off"
          ? `${cmd.tool} is not available now: its server is not connected. Nothing was run.`
          : `I have no tool called ${cmd.tool}. /tools lists what I can use.`,
    };
  }
  if (mode !== "auto" && mode !== "approve") return { ok: false, reply: `I’m not allowed to use ${tool.name}. An admin can allow it in my tool settings. Nothing was run.` };
  const read = readArguments(cmd.rest, tool.inputSchema);
  if (!read.ok) return { ok: false, reply: `${read.message} Usage: ${usage(tool)}` };
  const problems = checkArguments(tool.inputSchema, read.args);
  if (problems.length) return { ok: false, reply: `${tool.name} can’t run with these arguments: ${problems.join("; ")}. Usage: ${usage(tool)}. Nothing was run.`.slice(0, 1_000) };
  return { ok: true, tool, args: read.args };
}
