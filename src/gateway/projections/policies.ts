import type { TStoredEvent } from "../../../contracts/events.js";
import type { Delta, TenantState } from "./state.js";

/**
 * A workspace's policy overrides changed: its owners and admins get a `policy.update` (the
 * Policies screen reloads through its own admin-only route; the frame carries no settings).
 */
export function applyPolicies(state: TenantState, ev: TStoredEvent): Delta[] {
  if (ev.event_type !== "policy.overrides_set") return [];
  const admins = new Set<string>();
  for (const [id, row] of state.entities)
    if (row.roles.includes("admin") || row.roles.includes("owner")) admins.add(id);
  return [{ event: "policy.update", data: { tenant_id: state.tenant_id, event_id: ev.event_id }, audience: admins }];
}
