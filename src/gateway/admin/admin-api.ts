import type { z } from "zod";
import type { TPolicyOverridesRequest, ZSetAccessRequest, ZUpdateAgentRequest } from "../../../contracts/admin.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { listAgents, removeAgent, setAgentPaused, updateAgent } from "./agents.js";
import { deactivateMember, listMembers, reactivateMember, setAccess } from "./members.js";
import { listPolicies, previewOverrides, saveOverrides } from "./policies.js";
import { listTokens, revokeToken, rotateTokens } from "./tokens.js";

/** The Admin screens' part of the gateway's door: one method per route under /v1/admin. */
export interface AdminApi {
  /** GET /v1/admin/members (owners and admins). */
  listMembers(p: Principal): ReturnType<typeof listMembers>;
  /** PUT /v1/admin/members/:id/access: owner, admin or member (entity.role_changed). */
  setAccess(
    p: Principal,
    entityId: string,
    body: z.infer<typeof ZSetAccessRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** POST /v1/admin/members/:id/deactivate: their tokens end in the same commit. */
  deactivateMember(p: Principal, entityId: string, idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/admin/members/:id/reactivate: with a new sign-in link for them. */
  reactivateMember(p: Principal, entityId: string, idem: IdemScope): Promise<StoredResponse>;
  /** POST /v1/admin/members/:id/rotate-tokens: all their tokens revoked, one new sign-in link. */
  rotateTokens(p: Principal, entityId: string, idem: IdemScope): Promise<StoredResponse>;
  /** GET /v1/admin/agents. */
  listAgents(p: Principal): ReturnType<typeof listAgents>;
  /** PUT /v1/admin/agents/:id: name, role, capabilities, allowed tools. */
  updateAgent(
    p: Principal,
    agentId: string,
    body: z.infer<typeof ZUpdateAgentRequest>,
    idem: IdemScope,
  ): Promise<StoredResponse>;
  /** POST /v1/admin/agents/:id/pause or /resume. */
  setAgentPaused(p: Principal, agentId: string, paused: boolean, idem: IdemScope): Promise<StoredResponse>;
  /** DELETE /v1/admin/agents/:id. */
  removeAgent(p: Principal, agentId: string, idem: IdemScope): Promise<StoredResponse>;
  /** GET /v1/admin/tokens: whose, created, last used; never a secret. */
  listTokens(p: Principal): ReturnType<typeof listTokens>;
  /** DELETE /v1/admin/tokens/:token_id. */
  revokeToken(p: Principal, tokenId: string, idem: IdemScope): Promise<StoredResponse>;
  /** GET /v1/admin/policies: each policy's pack mode, mode in force and allowed modes; the tunable parameters. */
  listPolicies(p: Principal): ReturnType<typeof listPolicies>;
  /** POST /v1/admin/policies/preview: what a proposed set of overrides changes; writes nothing. */
  previewOverrides(p: Principal, body: TPolicyOverridesRequest): ReturnType<typeof previewOverrides>;
  /** PUT /v1/admin/policies: the workspace's whole set of overrides (policy.overrides_set). */
  saveOverrides(p: Principal, body: TPolicyOverridesRequest, idem: IdemScope): Promise<StoredResponse>;
}

export function createAdminApi(core: Core): AdminApi {
  return {
    listMembers: (p) => listMembers(core, p),
    setAccess: (p, id, body, idem) => setAccess(core, p, id, body, idem),
    deactivateMember: (p, id, idem) => deactivateMember(core, p, id, idem),
    reactivateMember: (p, id, idem) => reactivateMember(core, p, id, idem),
    rotateTokens: (p, id, idem) => rotateTokens(core, p, id, idem),
    listAgents: (p) => listAgents(core, p),
    updateAgent: (p, id, body, idem) => updateAgent(core, p, id, body, idem),
    setAgentPaused: (p, id, paused, idem) => setAgentPaused(core, p, id, paused, idem),
    removeAgent: (p, id, idem) => removeAgent(core, p, id, idem),
    listTokens: (p) => listTokens(core, p),
    revokeToken: (p, id, idem) => revokeToken(core, p, id, idem),
    listPolicies: (p) => listPolicies(core, p),
    previewOverrides: (p, body) => previewOverrides(core, p, body),
    saveOverrides: (p, body, idem) => saveOverrides(core, p, body, idem),
  };
}
