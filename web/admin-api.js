// @ts-check
import { request } from "./api.js";

/** Path segments are encoded, as in api.js. */
const enc = encodeURIComponent;

/**
 * What the Admin screens ask of the server (owners and admins): outgoing mail, MCP servers and
 * agents' tools, members, agents, tokens, policies and contact imports. Every call goes through
 * api.js `request` (session cookie, CSRF header, Idempotency-Key).
 */
export const adminApi = {
  /** Admins: outgoing email (invites) and whether mail is configured. */
  listOutbox: () => request("GET", "/v1/outbox"),
  /** Admins: send a refused or waiting message again (its job goes back to work). @param {string} outboxId */
  resendOutbox: (outboxId) => request("POST", `/v1/outbox/${enc(outboxId)}/resend`),
  /** Admins: the MCP servers, connected or failing and why, with their tools. */
  mcpStatus: () => request("GET", "/v1/admin/mcp"),
  /** Admins: an agent's tools and what it may do with each. @param {string} agentId */
  agentTools: (agentId) => request("GET", `/v1/agents/${enc(agentId)}/tools`),
  /** Admins: auto / approve / off per tool. @param {string} agentId @param {Array<{ name: string, mode: string }>} tools */
  setAgentTools: (agentId, tools) => request("PUT", `/v1/agents/${enc(agentId)}/tools`, { body: { tools } }),
  listMembers: () => request("GET", "/v1/admin/members"),
  /** @param {string} id @param {"owner"|"admin"|"member"} access */
  setAccess: (id, access) => request("PUT", `/v1/admin/members/${enc(id)}/access`, { body: { access } }),
  /** @param {string} id */
  deactivateMember: (id) => request("POST", `/v1/admin/members/${enc(id)}/deactivate`),
  /** @param {string} id @returns {Promise<{ signin_url: string }>} */
  reactivateMember: (id) => request("POST", `/v1/admin/members/${enc(id)}/reactivate`),
  /** @param {string} id @returns {Promise<{ signin_url: string, revoked: number }>} */
  rotateTokens: (id) => request("POST", `/v1/admin/members/${enc(id)}/rotate-tokens`),
  listAdminAgents: () => request("GET", "/v1/admin/agents"),
  /** @param {string} id @param {{ display_name?: string, role?: string, capabilities?: string[], allowed_tools?: string[] }} body */
  updateAgent: (id, body) => request("PUT", `/v1/admin/agents/${enc(id)}`, { body }),
  /** @param {string} id @param {boolean} paused */
  setAgentPaused: (id, paused) => request("POST", `/v1/admin/agents/${enc(id)}/${paused ? "pause" : "resume"}`),
  /** @param {string} id */
  removeAgent: (id) => request("DELETE", `/v1/admin/agents/${enc(id)}`),
  listTokens: () => request("GET", "/v1/admin/tokens"),
  /** @param {string} tokenId */
  revokeToken: (tokenId) => request("DELETE", `/v1/admin/tokens/${enc(tokenId)}`),
  listPolicies: () => request("GET", "/v1/admin/policies"),
  /** @param {{ modes: Record<string, string>, params: Record<string, number> }} body */
  previewPolicies: (body) => request("POST", "/v1/admin/policies/preview", { body }),
  /** @param {{ modes: Record<string, string>, params: Record<string, number> }} body @param {string} [key] */
  savePolicies: (body, key) => request("PUT", "/v1/admin/policies", { body, ...(key ? { key } : {}) }),
  /** @param {string} csv */
  importContacts: (csv) => request("POST", "/v1/contacts/import", { body: { csv } }),
};
