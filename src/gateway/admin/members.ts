import type { z } from "zod";
import type { TAccessLevel, ZMemberView, ZSetAccessRequest } from "../../../contracts/admin.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { accessOf, adminWrite, conflict, requireAdminRead, rolesFor, signInUrl } from "./shared.js";

const ORDER: Record<TAccessLevel, number> = { owner: 0, admin: 1, member: 2 };

/** GET /v1/admin/members: every person of the workspace with their access, deactivated ones too. */
export function listMembers(core: Core, p: Principal): { members: z.infer<typeof ZMemberView>[] } {
  requireAdminRead(core, p);
  const members = [...core.tenant(p.tenantId).entities.values()]
    .filter((e) => e.actor_type === "human")
    .map((e) => ({
      entity_id: e.entity_id,
      display_name: e.display_name,
      access: accessOf(e.roles),
      roles: e.roles,
      status: e.status ? ("deactivated" as const) : ("active" as const),
      joined_at: new Date(e.registered_ms).toISOString(),
    }))
    .sort((a, b) => ORDER[a.access] - ORDER[b.access] || a.display_name.localeCompare(b.display_name));
  return { members };
}

/**
 * PUT /v1/admin/members/:id/access: owner, admin or member, as `entity.role_changed` with the
 * person's whole new set of roles. The policy pack decides who may (only an owner makes or
 * unmakes an owner) and keeps the last owner. Their open streams end (what they may read changed).
 */
export function setAccess(
  core: Core,
  p: Principal,
  entityId: string,
  body: z.infer<typeof ZSetAccessRequest>,
  idem?: IdemScope,
): Promise<StoredResponse> {
  return adminWrite(
    core,
    p,
    { id: entityId, kind: "human" },
    (row) => {
      if (row && accessOf(row.roles) === body.access)
        throw conflict(
          `${row.display_name} is already ${body.access === "admin" ? "an" : "a"} ${body.access}`,
          entityId,
        );
      return {
        type: "entity.role_changed",
        payload: { entity_id: entityId, roles: rolesFor(body.access, row?.roles ?? []) },
      };
    },
    { idem, body: () => ({ access: body.access }) },
  );
}

/**
 * POST /v1/admin/members/:id/deactivate: every token of theirs is revoked in the same commit, so
 * their open streams end and each request with an old token answers 401 at once.
 */
export async function deactivateMember(
  core: Core,
  p: Principal,
  entityId: string,
  idem?: IdemScope,
): Promise<StoredResponse> {
  const revoked = (await core.tokens.sessions({ tenantId: p.tenantId, entityId })).length;
  return adminWrite(
    core,
    p,
    { id: entityId, kind: "human" },
    (row) => {
      if (row?.status) throw conflict(`${row.display_name} is already deactivated`, entityId);
      return { type: "entity.deactivated", payload: { entity_id: entityId, reason: "deactivated" } };
    },
    {
      idem,
      extra: () => core.tokens.revokeAll({ tenantId: p.tenantId, entityId }),
      body: () => ({ status: "deactivated", revoked }),
    },
  );
}

/** POST /v1/admin/members/:id/reactivate: back in, with a fresh one-click sign-in link for them. */
export function reactivateMember(
  core: Core,
  p: Principal,
  entityId: string,
  idem?: IdemScope,
): Promise<StoredResponse> {
  let token = "";
  return adminWrite(
    core,
    p,
    { id: entityId, kind: "human" },
    (row) => {
      if (row && !row.status) throw conflict(`${row.display_name} is active`, entityId);
      return { type: "entity.reactivated", payload: { entity_id: entityId } };
    },
    {
      idem,
      extra: () => void (token = core.tokens.issue({ tenantId: p.tenantId, entityId })),
      body: () => ({ status: "active", signin_url: signInUrl(core, token) }),
    },
  );
}
