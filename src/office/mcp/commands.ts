import type { EntityProfile } from "../views/office-view.js";
import { argumentFields, checkArguments, parseRunCommand, readArguments } from "./arguments.js";
import type { McpToolInfo } from "./hub.js";
import { type Translate, words } from "../speak.js";

/**
 * `/tools` and `/run <tool> …` in a chat with an agent: what it can do with MCP tools, and a
 * request to run one. Pure: the agent's modes and the connected tools come in, a reply or a
 * checked request goes out. Nothing is proposed for a tool the agent may not use or for
 * arguments that do not fit the tool's input schema. Replies are in the asker's language (`t`);
 * the tools' names, descriptions and the argument checks' details are quoted as they come.
 */

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
export function toolsReply(agent: EntityProfile, tools: readonly McpToolInfo[], t: Translate = words()): string {
  const mine = usable(agent, tools);
  if (!mine.length) return t("office.mcp.tools.none", { agent: agent.display_name });
  const lines = mine.map(
    (x) =>
      `• ${x.name} — ${t(`office.mcp.mode.${agent.tool_modes![x.name] as "auto" | "approve"}`)}. ${(x.title ?? x.description).split(/(?<=\.)\s/)[0]!.slice(0, 140)}\n  ${usage(x)}`,
  );
  return `${t("office.mcp.tools.heading")}\n${lines.join("\n")}`.slice(0, 3_900);
}

/** A `/run` request checked against the agent's modes and the tool's input schema. */
export function checkRun(
  agent: EntityProfile,
  tools: readonly McpToolInfo[],
  text: string,
  t: Translate = words(),
): { ok: false; reply: string } | { ok: true; tool: McpToolInfo; args: Record<string, unknown> } {
  const cmd = parseRunCommand(text);
  if (!cmd?.tool) return { ok: false, reply: t("office.mcp.run.whichTool", { usage: "/run <tool> key=value …" }) };
  const tool = tools.find((x) => x.name === cmd.tool);
  const mode = agent.tool_modes?.[cmd.tool];
  if (!tool) {
    return {
      ok: false,
      reply:
        mode && mode !== "off"
          ? t("office.mcp.run.notConnected", { tool: cmd.tool })
          : t("office.mcp.run.noSuchTool", { tool: cmd.tool }),
    };
  }
  if (mode !== "auto" && mode !== "approve")
    return { ok: false, reply: t("office.mcp.run.notAllowed", { tool: tool.name }) };
  const read = readArguments(cmd.rest, tool.inputSchema);
  if (!read.ok)
    return { ok: false, reply: t("office.mcp.run.unreadable", { message: read.message, usage: usage(tool) }) };
  const problems = checkArguments(tool.inputSchema, read.args);
  if (problems.length)
    return {
      ok: false,
      reply: t("office.mcp.run.badArguments", {
        tool: tool.name,
        problems: problems.join("; "),
        usage: usage(tool),
      }).slice(0, 1_000),
    };
  return { ok: true, tool, args: read.args };
}
