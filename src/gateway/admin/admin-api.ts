import type { z } from "zod";
import type { TPolicyOverridesRequest, ZSetAccessRequest, ZUpdateAgentRequest } from "../../../contracts/admin.js";
import type { Principal } from "../auth/token-store.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import type { listAgents } from "./agents.js";
import type { listMembers } from "./members.js";
import type { listPolicies, previewOverrides } from "./policies.js";
import type { listTokens } from "./tokens.js";

/**
 * The Admin screens' part of the gateway's door: one method per route under /v1/admin, each the
 * feature's own function with the gateway's state bound (see `createGatewayApi`).
 */
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
