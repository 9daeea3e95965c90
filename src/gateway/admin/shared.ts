import type { TAccessLevel } from "../../../contracts/admin.js";
import {
  WORKSPACE_CONVERSATION_ID,
  type TEventType,
  type TPayloadOf,
  type TUblEvent,
} from "../../../contracts/events.js";
import { AppError } from "../../shared/errors.js";
import type { Principal } from "../auth/token-store.js";
import type { Core } from "../core.js";
import type { IdemScope, StoredResponse } from "../idempotency.js";
import type { EntityRow } from "../projections/state.js";

const isAdminRow = (e: EntityRow) => e.roles.includes("admin") || e.roles.includes("owner");

/** Whether the caller may administer the workspace: decided before anything about a target is looked at. */
export const mayAdminister = (core: Core, p: Principal): boolean => isAdminRow(core.me(p));

/** Reads of the Admin screens: owners and admins only. */
export function requireAdminRead(core: Core, p: Principal): EntityRow {
  const me = core.me(p);
  if (!isAdminRow(me)) throw new AppError("FORBIDDEN", "Only a workspace owner or admin can see this");
  return me;
}

export function accessOf(roles: readonly string[]): TAccessLevel {
  return roles.includes("owner") ? "owner" : roles.includes("admin") ? "admin" : "member";
}

/** The authority roles for an access level, keeping the person's other roles (approver, …). */
export function rolesFor(level: TAccessLevel, current: readonly string[]): string[] {
  const rest = current.filter((r) => r !== "owner" && r !== "admin" && (level === "member" || r !== "member"));
  const lead =
    level === "owner" ? ["owner", "admin", "job_approver"] : level === "admin" ? ["admin", "job_approver"] : [];
  const roles = [...new Set([...lead, ...rest])];
  return roles.length ? roles : ["member"];
}

/** A one-click sign-in link, relative when the server's public address is not known yet. */
export const signInUrl = (core: Core, token: string) =>
  `${core.publicUrl() ?? ""}/signin?token=${encodeURIComponent(token)}`;

type Kind = "human" | "agent";

/**
 * An admin act on one entity. The caller's role comes first: anyone who may not administer has
 * their attempt written as it is, built without looking at the target (so the answer, 403 from
 * the policy pack, recorded as a `policy.violation`, tells nothing about it). For an admin the
 * target must exist (404 otherwise), and `build` may refuse a state that is already so (409).
 */
export async function adminWrite<T extends TEventType>(
  core: Core,
  p: Principal,
  target: { id: string; kind: Kind },
  build: (row: EntityRow | undefined) => { type: T; payload: TPayloadOf<T>; more?: TUblEvent[] },
  opts: {
    idem: IdemScope | undefined;
    extra?: (row: EntityRow) => void;
    body?: (row: EntityRow) => Record<string, unknown>;
  },
): Promise<StoredResponse> {
  const me = core.me(p);
  const admin = isAdminRow(me);
  const row = admin ? core.tenant(p.tenantId).entities.get(target.id) : undefined;
  const found = row && row.actor_type === target.kind && row.status !== "removed" ? row : undefined;
  if (admin && !found)
    throw new AppError(
      "NOT_FOUND",
      target.kind === "agent" ? "No such agent in this workspace" : "No such person in this workspace",
      { entity_id: target.id },
    );
  const { type, payload, more } = build(found);
  const ev = core.event(
    p.tenantId,
    type,
    WORKSPACE_CONVERSATION_ID,
    { entity_id: p.entityId, actor_type: me.actor_type },
    payload,
  );
  return core.commit(p.tenantId, [ev, ...(more ?? [])], {
    idem: opts.idem,
    status: 200,
    ...(opts.extra && found ? { extra: () => opts.extra?.(found) } : {}),
    body: (res) => ({
      entity_id: target.id,
      ...(found && opts.body ? opts.body(found) : {}),
      created_event_ids: res.accepted_event_ids,
      cursor: res.cursor,
    }),
  });
}

/** A state the admin asked for that is already so: a clear 409 rather than a policy refusal. */
export function conflict(message: string, entityId: string): AppError {
  return new AppError("CONFLICT", message, { entity_id: entityId });
}
