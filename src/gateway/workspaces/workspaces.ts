import type { z } from "zod";
import type {
  ZAcceptInviteRequest,
  ZCreateAgentRequest,
  ZCreateInviteRequest,
  ZCreateWorkspaceRequest,
} from "../../../contracts/gateway.js";
import { WORKSPACE_CONVERSATION_ID } from "../../../contracts/events.js";
import { AppError } from "../../shared/errors.js";
import { hashSecret, newSecret, type Principal } from "../auth/token-store.js";
import { GATEWAY_SYSTEM_ACTOR, notFound, type Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import { recorded } from "../sessions/sessions.js";

const INVITE_TTL_MS = 7 * 24 * 3600_000;

export function requireAdmin(core: Core, p: Principal): void {
  if (!core.me(p).roles.includes("admin")) throw new AppError("FORBIDDEN", "Only a workspace admin can do this");
}

/**
 * Sign-up through the public route: refused unless SIGNUP is open now. Invite links are not
 * sign-up and work in every mode; the machine's administrator creates workspaces through the
 * admin endpoint (`logline workspace create`) whatever SIGNUP says.
 */
function refuseClosedSignup(core: Core): void {
  const mode = core.signupMode();
  if (mode === "open") return;
  const why =
    mode === "closed"
      ? "Sign-up is closed on this server: it takes no new workspaces."
      : "New workspaces on this server are by invitation only.";
  throw new AppError(
    "SIGNUP_CLOSED",
    `${why} To join your team's workspace, ask one of its admins for an invite link.`,
    { signup: mode },
  );
}

/** Onboarding step 1: a tenant and its owner (owner, admin and approver), signed in at once. */
export async function registerWorkspace(
  core: Core,
  body: z.infer<typeof ZCreateWorkspaceRequest>,
  idem?: IdemScope,
): Promise<StoredResponse> {
  const tenantId = core.ids("tnt");
  const ownerId = core.ids("ent");
  let token = "";
  const ev = core.event(tenantId, "entity.registered", WORKSPACE_CONVERSATION_ID, GATEWAY_SYSTEM_ACTOR, {
    entity_id: ownerId,
    actor_type: "human",
    display_name: body.owner.display_name,
    roles: ["owner", "job_approver", "admin"],
  });
  return core.commit(tenantId, [ev], {
    idem,
    status: 201,
    extra: () => void (token = core.tokens.issue({ tenantId, entityId: ownerId }, { via: "workspace" })),
    body: () => ({ tenant_id: tenantId, owner_entity_id: ownerId, token, workspace_name: body.name }),
  });
}

/** Onboarding step 2: an invite link, one use, a week long. Only its hash is stored. */
export function createInvite(
  core: Core,
  p: Principal,
  body: z.infer<typeof ZCreateInviteRequest>,
  idem?: IdemScope,
): StoredResponse {
  requireAdmin(core, p);
  const invite = newSecret("inv");
  const base = core.publicUrl() ?? "";
  return recorded(core, idem, 201, () => {
    core.authRows.write(
      "INSERT INTO gateway_invites (invite_hash, tenant_id, created_by, display_name, roles, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [
        hashSecret(invite),
        p.tenantId,
        p.entityId,
        body.display_name ?? null,
        JSON.stringify(body.roles ?? ["member"]),
        core.clock.iso(),
        new Date(core.clock.now() + INVITE_TTL_MS).toISOString(),
      ],
    );
    return { invite_token: invite, url: `${base}/invite/${invite}` };
  });
}

interface InviteRow {
  tenant_id: string;
  display_name: string | null;
  roles: string;
  expires_at: string;
  accepted_by: string | null;
}

async function openInvite(core: Core, invite: string): Promise<InviteRow & { hash: string }> {
  const hash = hashSecret(invite);
  const row = await core.authRows.one<InviteRow>(
    "SELECT tenant_id, display_name, roles, expires_at, accepted_by FROM gateway_invites WHERE invite_hash = ?",
    [hash],
  );
  if (!row || row.accepted_by || Date.parse(row.expires_at) < core.clock.now()) throw notFound("Invite");
  return { ...row, hash };
}

/** What an invite page shows before accepting: the workspace and the suggested name. */
export async function describeInvite(core: Core, invite: string) {
  const row = await openInvite(core, invite);
  return {
    tenant_id: row.tenant_id,
    display_name: row.display_name,
    roles: JSON.parse(row.roles) as string[],
    expires_at: row.expires_at,
  };
}

/**
 * Onboarding step 2b: the invited person joins. The invite is spent first (the UPDATE's WHERE
 * makes a concurrent second accept, on any process, fail) and given back if the commit fails.
 */
export async function acceptInvite(
  core: Core,
  invite: string,
  body: z.infer<typeof ZAcceptInviteRequest>,
  idem?: IdemScope,
): Promise<StoredResponse> {
  const row = await openInvite(core, invite);
  const entityId = core.ids("ent");
  let token = "";
  const ev = core.event(row.tenant_id, "entity.registered", WORKSPACE_CONVERSATION_ID, GATEWAY_SYSTEM_ACTOR, {
    entity_id: entityId,
    actor_type: "human",
    display_name: body.display_name,
    roles: JSON.parse(row.roles) as string[],
  });
  const spent = await core.authRows.change(
    "UPDATE gateway_invites SET accepted_by = ? WHERE invite_hash = ? AND accepted_by IS NULL",
    [entityId, row.hash],
  );
  if (spent !== 1) throw notFound("Invite");
  try {
    return await core.commit(row.tenant_id, [ev], {
      idem,
      status: 201,
      extra: () => void (token = core.tokens.issue({ tenantId: row.tenant_id, entityId }, { via: "invite" })),
      body: () => ({ entity_id: entityId, token, tenant_id: row.tenant_id }),
    });
  } catch (e) {
    await core.authRows.change(
      "UPDATE gateway_invites SET accepted_by = NULL WHERE invite_hash = ? AND accepted_by = ?",
      [row.hash, entityId],
    );
    throw e;
  }
}

/** Onboarding step 3: an agent coworker. Agents get no token: Office acts for them. */
export async function createAgent(
  core: Core,
  p: Principal,
  body: z.infer<typeof ZCreateAgentRequest>,
  idem?: IdemScope,
): Promise<StoredResponse> {
  requireAdmin(core, p);
  const entityId = core.ids("ent");
  const ev = core.event(
    p.tenantId,
    "entity.registered",
    WORKSPACE_CONVERSATION_ID,
    { entity_id: p.entityId, actor_type: "human" },
    {
      entity_id: entityId,
      actor_type: "agent",
      display_name: body.display_name,
      roles: ["job_owner"],
      role: body.role,
      capabilities: body.capabilities,
      allowed_tools: body.allowed_tools,
    },
  );
  return core.commit(p.tenantId, [ev], {
    idem,
    status: 201,
    body: (res) => ({ entity_id: entityId, created_event_ids: res.accepted_event_ids, cursor: res.cursor }),
  });
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/**
 * A person sets (or, with null, removes) their own address: the address goes to the vault and a
 * fresh `entity.registered` carries its redaction and pointer, written by the platform for them
 * (people may not register entities themselves). The vault keeps one entry per address, which a
 * contact or a job may share, so a replaced address is not erased here.
 */
export async function setMyEmail(
  core: Core,
  p: Principal,
  email: string | null,
  idem?: IdemScope,
): Promise<StoredResponse> {
  const me = core.me(p);
  if (me.actor_type !== "human") throw new AppError("FORBIDDEN", "Only a person has an email address here");
  if (email !== null && !EMAIL.test(email)) throw new AppError("VALIDATION_ERROR", "Invalid email", { field: "email" });
  const v = email === null ? undefined : core.office.vault.put(p.tenantId, "email", email);
  const stored = v ? { redacted: v.redacted, hash: v.hash, vault_ref: v.vault_ref } : undefined;
  const ev = core.event(p.tenantId, "entity.registered", WORKSPACE_CONVERSATION_ID, GATEWAY_SYSTEM_ACTOR, {
    entity_id: me.entity_id,
    actor_type: "human",
    display_name: me.display_name,
    roles: me.roles,
    ...(me.role ? { role: me.role } : {}),
    ...(me.capabilities ? { capabilities: me.capabilities } : {}),
    ...(me.avatar_url ? { avatar_url: me.avatar_url } : {}),
    ...(stored ? { email: stored } : {}),
  });
  return core.commit(p.tenantId, [ev], {
    idem,
    status: 200,
    body: (res) => ({
      entity_id: me.entity_id,
      email: stored?.redacted ?? null,
      created_event_ids: res.accepted_event_ids,
      cursor: res.cursor,
    }),
  });
}

/**
 * POST /v1/workspaces. Sign-up is checked inside the write (after the idempotency lookup): a retry
 * of a workspace created before sign-up shut still gets its stored 201.
 */
export function createWorkspace(core: Core, body: z.infer<typeof ZCreateWorkspaceRequest>, idem: IdemScope) {
  refuseClosedSignup(core);
  return registerWorkspace(core, body, idem);
}
