import type { z } from "zod";
import type { ZAgentAdminView, ZUpdateAgentRequest } from "../../../contracts/admin.js";
import { WORKSPACE_CONVERSATION_ID, type TUblEvent } from "../../../contracts/events.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import type { EntityRow } from "../projections/state.js";
import { adminWrite, conflict, mayAdminister, requireAdminRead } from "./shared.js";

/** The tools an agent may use now, as Office and the policy pack decide it (mode, else registration). */
function usable(core: Core, tenantId: string, agentId: string): string[] {
  return (core.office.agentTools(tenantId, agentId) ?? []).filter((t) => t.mode !== "off").map((t) => t.name);
}

/** GET /v1/admin/agents: the workspace's agents (removed ones are gone), paused ones marked. */
export function listAgents(core: Core, p: Principal): { agents: z.infer<typeof ZAgentAdminView>[] } {
  requireAdminRead(core, p);
  const agents = [...core.tenant(p.tenantId).entities.values()]
    .filter((e) => e.actor_type === "agent" && !e.status)
    .map((e) => ({
      entity_id: e.entity_id,
      display_name: e.display_name,
      role: e.role ?? null,
      capabilities: e.capabilities ?? [],
      allowed_tools: usable(core, p.tenantId, e.entity_id),
      status: e.paused ? ("paused" as const) : ("active" as const),
    }))
    .sort((a, b) => a.display_name.localeCompare(b.display_name));
  return { agents };
}

/**
 * PUT /v1/admin/agents/:id: name, role, capabilities and allowed tools. The profile is a new
 * `entity.registered` written as the admin (same roles: the policy pack refuses anything else).
 * Allowed tools: a built-in one is allowed by listing it in the registration; an MCP tool, or a
 * tool whose mode an admin already chose on the Tools screen, by an `agent.tool_mode_set`
 * (its suggested mode when turned on, off when left out). All in one commit.
 */
export function updateAgent(
  core: Core,
  p: Principal,
  agentId: string,
  body: z.infer<typeof ZUpdateAgentRequest>,
  idem?: IdemScope,
): Promise<StoredResponse> {
  // What the agent has is looked at for an admin only; anyone else's attempt is refused as it is.
  const admin = mayAdminister(core, p);
  const view = admin ? (core.office.agentTools(p.tenantId, agentId) ?? []) : [];
  const byName = new Map(view.map((t) => [t.name, t]));
  const wanted = body.allowed_tools;
  if (wanted && admin) {
    const fields: Record<string, string> = {};
    wanted.forEach((name, i) => {
      if (!byName.has(name)) fields[`allowed_tools.${i}`] = `No tool named ${name} (is its MCP server connected?).`;
      else if (wanted.indexOf(name) !== i) fields[`allowed_tools.${i}`] = `${name} is named twice.`;
    });
    const first = Object.entries(fields)[0];
    if (first) throw new AppError("VALIDATION_ERROR", `${first[0]}: ${first[1]}`, { fields });
  }
  const actor = { entity_id: p.entityId, actor_type: "human" as const };
  const modeEvents = (): TUblEvent[] =>
    !wanted
      ? []
      : view.flatMap((t) => {
          const on = wanted.includes(t.name);
          const mode = on
            ? t.modes.includes(t.suggested_mode) && t.suggested_mode !== "off"
              ? t.suggested_mode
              : "approve"
            : "off";
          // A built-in tool with no mode chosen follows the registration list; nothing to write.
          if (t.source === "built-in" && !t.mode_set) return [];
          if ((t.mode !== "off") === on && (t.mode_set || !on)) return [];
          return [
            core.event(p.tenantId, "agent.tool_mode_set", WORKSPACE_CONVERSATION_ID, actor, {
              agent_entity_id: agentId,
              tool_name: t.name,
              mode,
            }),
          ];
        });
  const registration = (row: EntityRow | undefined) => {
    const builtIns = wanted ? wanted.filter((n) => byName.get(n)?.source === "built-in") : row?.allowed_tools;
    const capabilities = body.capabilities ?? row?.capabilities;
    return {
      type: "entity.registered" as const,
      payload: {
        entity_id: agentId,
        actor_type: "agent" as const,
        display_name: body.display_name ?? row?.display_name ?? agentId,
        roles: row?.roles ?? ["job_owner"],
        ...((body.role ?? row?.role) ? { role: body.role ?? row?.role } : {}),
        ...(capabilities ? { capabilities } : {}),
        ...(builtIns ? { allowed_tools: builtIns } : {}),
        ...(row?.avatar_url ? { avatar_url: row.avatar_url } : {}),
      },
      more: modeEvents(),
    };
  };
  return adminWrite(core, p, { id: agentId, kind: "agent" }, registration, {
    idem,
    body: () => ({ allowed_tools: wanted ?? null }),
  });
}

/** POST /v1/admin/agents/:id/pause and /resume. */
export function setAgentPaused(
  core: Core,
  p: Principal,
  agentId: string,
  paused: boolean,
  idem?: IdemScope,
): Promise<StoredResponse> {
  return adminWrite(
    core,
    p,
    { id: agentId, kind: "agent" },
    (row) => {
      if (row && !!row.paused === paused)
        throw conflict(`${row.display_name} is ${paused ? "already paused" : "not paused"}`, agentId);
      return paused
        ? { type: "agent.paused" as const, payload: { entity_id: agentId } }
        : { type: "agent.resumed" as const, payload: { entity_id: agentId } };
    },
    { idem, body: () => ({ status: paused ? "paused" : "active" }) },
  );
}

/** DELETE /v1/admin/agents/:id: the agent leaves the workspace for good (its history stays). */
export function removeAgent(core: Core, p: Principal, agentId: string, idem?: IdemScope): Promise<StoredResponse> {
  return adminWrite(
    core,
    p,
    { id: agentId, kind: "agent" },
    () => ({ type: "entity.deactivated", payload: { entity_id: agentId, reason: "removed" } }),
    {
      idem,
      body: () => ({ status: "removed" }),
    },
  );
}
