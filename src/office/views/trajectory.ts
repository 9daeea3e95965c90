import { mayUse } from "../mcp/agent-tools.js";
import { CARD_ACTION_TYPES } from "../../../contracts/cards.js";
import type { TAffordancesRequest, TAffordancesResponse } from "../../../contracts/office.js";
import { AppError } from "../../shared/errors.js";
import type { ContextBuilder } from "../context-builder.js";
import { isOpenState, mayClick } from "../../job/transitions.js";
import type { AgentTrajectory } from "../office-api.js";
import type { ToolRouter } from "../tools/tool-router.js";

/**
 * The agent's dignity trajectory: identity, every job it owned with its outcome, who approved
 * or disputed what and when, and what it still owes. Derived from the ledger on each call.
 */
export function buildTrajectory(
  context: ContextBuilder,
  tenantId: string,
  entityId: string,
  canSee?: (conversationId: string) => boolean,
): AgentTrajectory {
  const p = context.profile(tenantId, entityId);
  if (p?.actor_type !== "agent") throw new AppError("NOT_FOUND", "No such agent.", { entity_id: entityId });
  const jobs = context
    .agentJobIds(tenantId, entityId)
    .map((id) => context.job(tenantId, id))
    .filter((j) => j !== null)
    .filter((j) => !canSee || canSee(j.conversation_id));
  return {
    tenant_id: tenantId,
    entity_id: entityId,
    display_name: p.display_name,
    ...(p.role ? { role: p.role } : {}),
    capabilities: p.capabilities,
    allowed_tools: p.allowed_tools,
    jobs: jobs.map((j) => ({
      job_id: j.job_id,
      title: j.title,
      state: j.state,
      conversation_id: j.conversation_id,
      created_at: j.created_at,
      ...(j.outcome ? { outcome: j.outcome } : {}),
      approvals: j.approvals,
      disputes: j.disputes,
    })),
    open_commitments: jobs
      .filter((j) => isOpenState(j.state))
      .map((j) => ({ job_id: j.job_id, title: j.title, state: j.state })),
  };
}

export function buildAffordances(
  context: ContextBuilder,
  router: ToolRouter,
  req: TAffordancesRequest,
): TAffordancesResponse {
  const p = context.profile(req.tenant_id, req.entity_id);
  if (!p) throw new AppError("NOT_FOUND", "No such entity.", { entity_id: req.entity_id });
  const tools = p.actor_type === "agent" ? router.list().filter((t) => mayUse(p, t.name)) : [];
  const actions = CARD_ACTION_TYPES.filter((a) => mayClick(p.roles, a));
  const quick = tools.some((t) => t.name === "calendar.create_invite")
    ? [
        { label: "Schedule a meeting", prompt_text: "Schedule a 30-min call with … next week" },
        { label: "Book a demo", prompt_text: "Book a 45-minute demo with … tomorrow afternoon on Zoom" },
      ]
    : [];
  return {
    tenant_id: req.tenant_id,
    entity_id: req.entity_id,
    actor_type: p.actor_type,
    roles: p.roles,
    tools,
    actions,
    quick_actions: quick,
  };
}
