import { createHash } from "node:crypto";
import type { z } from "zod";
import type { ZTokenView } from "../../../contracts/admin.js";
import { AppError } from "../../shared/errors.js";
import type { LiveToken, Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { adminWrite, conflict, mayAdminister, requireAdminRead, signInUrl } from "./shared.js";

/**
 * The workspace's sign-in tokens for the Tokens screen: whose, when made, when last used —
 * never the secret, nor the hash the server looks it up by. A token's public id is derived from
 * that hash, so it names one token without being usable to find or forge it.
 */

const LISTED = 500;

const tokenIdOf = (tokenHash: string) =>
  `tok_${createHash("sha256").update(`token-id\0${tokenHash}`).digest("hex").slice(0, 20)}`;

const liveTokens = (core: Core, tenantId: string) => core.tokens.live(tenantId, LISTED);

/**
 * The session's persisted `last_seen_at` (written by the auth middleware, at most once a minute
 * per token), so it survives a restart. A token is stamped with its creation time when issued:
 * that alone is not a use, so it reads as never used.
 */
const lastUsed = (r: LiveToken): string | null =>
  r.last_seen_at && r.last_seen_at !== r.created_at ? r.last_seen_at : null;

/** GET /v1/admin/tokens: live tokens of the workspace's people, newest first (at most 500). */
export async function listTokens(core: Core, p: Principal): Promise<{ tokens: z.infer<typeof ZTokenView>[] }> {
  requireAdminRead(core, p);
  const people = core.tenant(p.tenantId).entities;
  const tokens = (await liveTokens(core, p.tenantId)).flatMap((r) => {
    const who = people.get(r.entity_id);
    if (!who) return [];
    return [
      {
        token_id: tokenIdOf(r.token_hash),
        entity_id: r.entity_id,
        display_name: who.display_name,
        created_at: r.created_at,
        last_used_at: lastUsed(r),
      },
    ];
  });
  return { tokens };
}

/**
 * DELETE /v1/admin/tokens/:token_id: that one token stops working now (its streams end); the
 * ledger records who ended whose sign-in (`entity.tokens_revoked`, with the public id only).
 */
export async function revokeToken(
  core: Core,
  p: Principal,
  tokenId: string,
  idem?: IdemScope,
): Promise<StoredResponse> {
  // Refused as any other caller's admin act would be: written, so the policy pack records it,
  // and without looking the token up first.
  const isAdmin = mayAdminister(core, p);
  const row = isAdmin
    ? (await liveTokens(core, p.tenantId)).find((r) => tokenIdOf(r.token_hash) === tokenId)
    : undefined;
  if (!row && isAdmin)
    throw new AppError("NOT_FOUND", "No such token in this workspace (or it was revoked already)", {
      token_id: tokenId,
    });
  const entityId = row?.entity_id ?? p.entityId;
  return adminWrite(
    core,
    p,
    { id: entityId, kind: "human" },
    () => ({ type: "entity.tokens_revoked", payload: { entity_id: entityId, token_id: tokenId, rotated: false } }),
    {
      idem,
      extra: () => {
        // The token store forgets its cached principal at once; open streams end.
        if (row) core.tokens.revokeHash(row.token_hash);
      },
      body: () => ({ token_id: tokenId, revoked: 1 }),
    },
  );
}

/**
 * POST /v1/admin/members/:id/rotate-tokens: what `logline token rotate` does, from the screen —
 * every token of the person revoked and one new sign-in link issued, in one commit.
 */
export async function rotateTokens(
  core: Core,
  p: Principal,
  entityId: string,
  idem?: IdemScope,
): Promise<StoredResponse> {
  const who = { tenantId: p.tenantId, entityId };
  const revoked = (await core.tokens.sessions(who)).length;
  let token = "";
  const build = (row: { display_name: string; status?: string } | undefined) => {
    if (row?.status)
      throw conflict(`${row.display_name} is deactivated: reactivate them to give them a new sign-in link`, entityId);
    return { type: "entity.tokens_revoked" as const, payload: { entity_id: entityId, rotated: true } };
  };
  return adminWrite(core, p, { id: entityId, kind: "human" }, build, {
    idem,
    extra: () => {
      core.tokens.revokeAll(who);
      token = core.tokens.issue(who);
    },
    body: () => ({ revoked, signin_url: signInUrl(core, token) }),
  });
}
