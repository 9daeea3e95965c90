import type { z } from "zod";
import type { TPolicyOverridesRequest, TPolicySettings, ZPolicyChange } from "../../../contracts/admin.js";
import { WORKSPACE_CONVERSATION_ID } from "../../../contracts/events.js";
import { AppError, validationError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { requireAdminRead } from "./shared.js";

/**
 * The Policies screen: the pack as it judges this workspace, a preview of what a proposed set of
 * overrides would change, and saving it as one `policy.overrides_set`. What may change (and within
 * which range) is the pack's own rule; the ledger lists it and refuses anything else, and these
 * checks say so first, field by field, for the form.
 */

type Change = z.infer<typeof ZPolicyChange>;

function settingsOf(core: Core, tenantId: string): TPolicySettings {
  const s = core.ledger.policySettings(tenantId);
  if (!s) throw new AppError("SERVICE_UNAVAILABLE", "This server's policy engine does not list its policies");
  return s;
}

/** GET /v1/admin/policies. */
export function listPolicies(core: Core, p: Principal): TPolicySettings {
  requireAdminRead(core, p);
  return settingsOf(core, p.tenantId);
}

/** The proposed overrides checked against what the workspace may choose, then kept to what differs from the deployment. */
function normalize(s: TPolicySettings, body: TPolicyOverridesRequest): TPolicyOverridesRequest {
  const issues: Array<{ path: string[]; message: string }> = [];
  const modes: TPolicyOverridesRequest["modes"] = {};
  const params: TPolicyOverridesRequest["params"] = {};
  for (const [id, mode] of Object.entries(body.modes)) {
    const policy = s.policies.find((x) => x.policy_id === id);
    if (!policy) issues.push({ path: ["modes", id], message: "is not a policy of this workspace's pack" });
    else if (!policy.allowed_modes.includes(mode))
      issues.push({
        path: ["modes", id],
        message: policy.locked
          ? `is locked: it always runs as ${policy.pack_mode}`
          : `may only be ${policy.allowed_modes.join(", ")}`,
      });
    else if (mode !== policy.pack_mode) modes[id] = mode;
  }
  for (const [name, value] of Object.entries(body.params)) {
    const param = s.params.find((x) => x.name === name);
    if (!param) issues.push({ path: ["params", name], message: "is not a parameter a workspace may set" });
    else if (value < param.min || value > param.max)
      issues.push({ path: ["params", name], message: `must be a whole number from ${param.min} to ${param.max}` });
    else if (value !== param.default_value) params[name] = value;
  }
  if (issues.length) throw validationError(issues, "policy overrides");
  return { modes, params };
}

/** What moves from the settings in force to the proposed set, mode by mode and value by value. */
function changesOf(s: TPolicySettings, next: TPolicyOverridesRequest): Change[] {
  const changes: Change[] = [];
  for (const policy of s.policies) {
    const to = next.modes[policy.policy_id] ?? policy.pack_mode;
    if (to !== policy.mode) changes.push({ kind: "mode", policy_id: policy.policy_id, from: policy.mode, to });
  }
  for (const param of s.params) {
    const to = next.params[param.name] ?? param.default_value;
    if (to !== param.value)
      changes.push({ kind: "param", name: param.name, policy_id: param.policy_id, from: param.value, to });
  }
  return changes;
}

/** POST /v1/admin/policies/preview: nothing is written. */
export function previewOverrides(core: Core, p: Principal, body: TPolicyOverridesRequest): { changes: Change[] } {
  requireAdminRead(core, p);
  const s = settingsOf(core, p.tenantId);
  return { changes: changesOf(s, normalize(s, body)) };
}

/**
 * PUT /v1/admin/policies: the workspace's whole set of overrides, as one `policy.overrides_set`.
 * Anyone but an owner or admin is written as asked, so the pack refuses it (403) and records it.
 */
export function saveOverrides(
  core: Core,
  p: Principal,
  body: TPolicyOverridesRequest,
  idem?: IdemScope,
): Promise<StoredResponse> {
  const me = core.me(p);
  const isAdmin = me.roles.includes("admin") || me.roles.includes("owner");
  const s = settingsOf(core, p.tenantId);
  const next = isAdmin ? normalize(s, body) : body;
  const changes = isAdmin ? changesOf(s, next) : [];
  if (isAdmin && changes.length === 0)
    throw new AppError("CONFLICT", "Nothing changes: the workspace's policies are already so");
  const ev = core.event(
    p.tenantId,
    "policy.overrides_set",
    WORKSPACE_CONVERSATION_ID,
    { entity_id: p.entityId, actor_type: me.actor_type },
    next,
  );
  return core.commit(p.tenantId, [ev], {
    idem,
    status: 200,
    body: (res) => ({ changes, created_event_ids: res.accepted_event_ids, cursor: res.cursor }),
  });
}

/**
 * The edit window in force for a workspace, in ms; null when its policy does not refuse (off or
 * warn). The ledger judges every edit anyway; this lets the gateway say so before writing.
 */
export function editWindowMs(core: Core, tenantId: string): number | null {
  const s = core.ledger.policySettings(tenantId);
  if (!s) return core.messageEditWindowMs;
  if (s.policies.find((x) => x.policy_id === "policy.message_edit_window")?.mode !== "enforce") return null;
  const seconds = s.params.find((x) => x.name === "message_edit_window_seconds")?.value;
  return seconds === undefined ? core.messageEditWindowMs : seconds * 1000;
}
