import type { HostLedgerApi } from "../ledger/index.js";
import type { LogLineServer } from "../server.js";

/**
 * Revokes every token of one entity and issues a fresh one, through the gateway's token store
 * (whose revocation also empties its in-memory cache, so the old token stops working at once).
 * Null when the tenant has no such entity. Used in-process by the CLI with the server stopped
 * and by the running server's admin endpoint.
 */
export async function rotateEntityTokens(
  server: Pick<LogLineServer<HostLedgerApi>, "gateway" | "ledger">,
  tenantId: string,
  entityId: string,
): Promise<{ revoked: number; token: string } | null> {
  if (!server.ledger.facts.entity(tenantId, entityId)) return null;
  const p = { tenantId, entityId };
  const { tokens } = server.gateway;
  const revoked = (await tokens.sessions(p)).length;
  tokens.revokeAll(p);
  const token = tokens.issue(p, { via: "admin" });
  await server.gateway.authSettled();
  return { revoked, token };
}
