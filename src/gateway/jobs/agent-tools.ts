import type { z } from "zod";
import type { ZSetAgentToolsRequest } from "../../../contracts/gateway.js";
import { WORKSPACE_CONVERSATION_ID } from "../../../contracts/events.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { requireAdmin } from "../workspaces/workspaces.js";

const notAgent = (id: string) =>
  new AppError("NOT_FOUND", "No agent with that id in this workspace.", { entity_id: id });

/** GET /v1/agents/:id/tools: every tool this agent could use, with the mode an admin chose. */
export function agentTools(core: Core, p: Principal, agentId: string) {
  requireAdmin(core, p);
  const tools = core.office.agentTools(p.tenantId, agentId);
  if (!tools) throw notAgent(agentId);
  return { agent_entity_id: agentId, tools };
}

/**
 * PUT /v1/agents/:id/tools: an admin's choices, each an `agent.tool_mode_set` written as the
 * admin in one commit (the policy pack checks it is an admin's). A tool must be one the agent
 * could use now — built-in, or offered by a connected MCP server — except that anything can be
 * switched off; built-in tools always ask first (approve or off). Unchanged modes write nothing.
 */
export async function setAgentTools(
  core: Core,
  p: Principal,
  agentId: string,
  body: z.infer<typeof ZSetAgentToolsRequest>,
  idem?: IdemScope,
): Promise<StoredResponse> {
  requireAdmin(core, p);
  const view = core.office.agentTools(p.tenantId, agentId);
  if (!view) throw notAgent(agentId);
  const byName = new Map(view.map((t) => [t.name, t]));
  const fields: Record<string, string> = {};
  const seen = new Set<string>();
  body.tools.forEach((t, i) => {
    const tool = byName.get(t.name);
    if (seen.has(t.name)) fields[`tools.${i}.name`] = `${t.name} is named twice.`;
    else if (!tool && t.mode !== "off")
      fields[`tools.${i}.name`] = `No tool named ${t.name} (is its MCP server connected?).`;
    else if (tool && !tool.modes.includes(t.mode))
      fields[`tools.${i}.mode`] = `${t.name} can be ${tool.modes.join(" or ")}, not ${t.mode}.`;
    seen.add(t.name);
  });
  const first = Object.entries(fields)[0];
  if (first) throw new AppError("VALIDATION_ERROR", `${first[0]}: ${first[1]}`, { fields });
  const changes = body.tools.filter((t) => {
    const now = byName.get(t.name);
    return !now?.mode_set || now.mode !== t.mode;
  });
  const actor = { entity_id: p.entityId, actor_type: "human" as const };
  const events = changes.map((t) =>
    core.event(p.tenantId, "agent.tool_mode_set", WORKSPACE_CONVERSATION_ID, actor, {
      agent_entity_id: agentId,
      tool_name: t.name,
      mode: t.mode,
    }),
  );
  // The answer is the view with the choices applied (Office folds the events after the commit).
  const chosen = new Map(changes.map((t) => [t.name, t.mode]));
  const result = () => ({
    agent_entity_id: agentId,
    tools: view.map((t) => (chosen.has(t.name) ? { ...t, mode: chosen.get(t.name)!, mode_set: true } : t)),
  });
  if (!events.length) return { status: 200, body: { ...result(), created_event_ids: [] } };
  return core.commit(p.tenantId, events, {
    idem,
    status: 200,
    body: (res) => ({ ...result(), created_event_ids: res.accepted_event_ids, cursor: res.cursor }),
  });
}
