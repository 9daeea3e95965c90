import { z } from "zod";
import { WORKSPACE_CONVERSATION_ID } from "../../../../contracts/events.js";
import type { RuleContext, RuleType } from "../rule.js";

/**
 * Administration of people and agents (role changes, deactivation, pause, ended sign-ins):
 *
 * - only an active person with the `admin` or `owner` role does it, in the workspace conversation;
 * - the target exists in the tenant; people get roles, sign-ins and deactivation, agents get
 *   paused, resumed and removed; a removed agent stays removed;
 * - what touches an owner, or makes one, is an owner's act (an admin cannot demote an owner),
 *   except in a workspace that has no owner at all yet;
 * - registering an existing entity again (a new name, an agent's tools) keeps its roles: roles
 *   change only through `entity.role_changed`, so this rule's owner checks cannot be bypassed.
 *
 * System actors (the platform) are exempt, as elsewhere in the pack.
 */

type Entity = NonNullable<ReturnType<RuleContext["fold"]["entity"]>>;

const sameRoles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join("\u0001") === [...b].sort().join("\u0001");
const isOwner = (e: Entity | undefined) => !!e && !e.status && e.roles.includes("owner");

function target(ctx: RuleContext): { id: string | undefined; entity: Entity | undefined } {
  const id = (ctx.event.payload as Record<string, unknown> | undefined)?.entity_id;
  return typeof id === "string"
    ? { id, entity: ctx.fold.entity(ctx.tenantId, id) }
    : { id: undefined, entity: undefined };
}

function reRegistration(ctx: RuleContext): string | null {
  const p = ctx.event.payload as { roles?: string[]; actor_type?: string };
  const { entity } = target(ctx);
  if (!entity) return null;
  if (entity.status === "removed") return "payload.entity_id names a removed agent";
  if (entity.actor_type !== p.actor_type) return "payload.actor_type differs from the entity's registration";
  if (!sameRoles(entity.roles, p.roles ?? [])) return "payload.roles may change only through entity.role_changed";
  return null;
}

function adminAct(ctx: RuleContext): string | null {
  const actor = ctx.actorId ? ctx.fold.entity(ctx.tenantId, ctx.actorId) : undefined;
  if (ctx.actorType !== "human" || !actor || actor.status) return `${ctx.eventType} comes only from an active person`;
  if (!actor.roles.includes("admin") && !actor.roles.includes("owner"))
    return `${ctx.eventType} is an owner's or an admin's act`;
  if (ctx.event.conversation_id !== WORKSPACE_CONVERSATION_ID)
    return `${ctx.eventType} belongs to conversation_id ${WORKSPACE_CONVERSATION_ID}`;
  const { entity } = target(ctx);
  if (!entity) return "payload.entity_id names nobody in this workspace";
  const p = ctx.event.payload as { roles?: string[]; reason?: string };
  const ownersExist = ctx.fold.activeOwnerCount(ctx.tenantId) > 0;
  const ownerOnly = (why: string) => (ownersExist && !isOwner(actor) ? `${why} is an owner's act` : null);
  const person = entity.actor_type === "human";
  switch (ctx.eventType) {
    case "entity.role_changed":
      if (!person) return "payload.entity_id must name a person";
      if (entity.status) return "payload.entity_id names a deactivated person";
      if (entity.roles.includes("owner") && !(p.roles ?? []).includes("owner")) return ownerOnly("demoting an owner");
      if (!entity.roles.includes("owner") && (p.roles ?? []).includes("owner")) return ownerOnly("making an owner");
      return entity.roles.includes("owner") ? ownerOnly("changing an owner's roles") : null;
    case "entity.deactivated":
      if (entity.status) return "payload.entity_id is already deactivated";
      if ((p.reason === "removed") !== !person)
        return "payload.reason is removed for an agent and deactivated for a person";
      return entity.roles.includes("owner") ? ownerOnly("deactivating an owner") : null;
    case "entity.reactivated":
      if (entity.status !== "deactivated")
        return "payload.entity_id is not deactivated (a removed agent stays removed)";
      return entity.roles.includes("owner") ? ownerOnly("reactivating an owner") : null;
    case "entity.tokens_revoked":
      if (!person) return "payload.entity_id must name a person (agents hold no tokens)";
      if ((ctx.event.payload as { rotated?: boolean }).rotated && entity.status)
        return "payload.entity_id is deactivated: a new sign-in comes with reactivation";
      return entity.roles.includes("owner") && ctx.actorId !== target(ctx).id
        ? ownerOnly("ending an owner's sign-ins")
        : null;
    case "agent.paused":
    case "agent.resumed":
      if (person) return "payload.entity_id must name an agent";
      if (entity.status) return "payload.entity_id names a removed agent";
      if (ctx.eventType === "agent.paused" && entity.paused) return "the agent is already paused";
      if (ctx.eventType === "agent.resumed" && !entity.paused) return "the agent is not paused";
      return null;
    default:
      return null;
  }
}

export const adminAuthority: RuleType<{ type: "admin_authority" }> = {
  schema: z.strictObject({
    type: z.literal("admin_authority"),
    note: z.string().optional(),
    event_types: z.array(z.string()).optional(),
  }),
  shape: false,
  compile() {
    return (ctx) => {
      if (ctx.actorType === "system") return null;
      return ctx.eventType === "entity.registered" ? reRegistration(ctx) : adminAct(ctx);
    };
  },
};

/** A workspace keeps an active owner: the last one is neither demoted nor deactivated. */
export const keepAnOwner: RuleType<{ type: "keep_an_owner" }> = {
  schema: z.strictObject({
    type: z.literal("keep_an_owner"),
    note: z.string().optional(),
    event_types: z.array(z.string()).optional(),
  }),
  shape: false,
  compile() {
    return (ctx) => {
      const { entity } = target(ctx);
      if (!isOwner(entity) || ctx.fold.activeOwnerCount(ctx.tenantId) > 1) return null;
      const p = ctx.event.payload as { roles?: string[] };
      if (ctx.eventType === "entity.deactivated") return "payload.entity_id is the workspace's last active owner";
      if (ctx.eventType === "entity.role_changed" && !(p.roles ?? []).includes("owner"))
        return "payload.roles would leave the workspace without an owner";
      return null;
    };
  },
};

/**
 * A deactivated person or a removed agent writes nothing more; a paused agent starts nothing
 * (`paused_refuses`: the event types that would be new work or new words), while what it
 * already started may still record its outcome.
 */
export const requireActiveActor: RuleType<{ type: "require_active_actor"; paused_refuses: string[] }> = {
  schema: z.strictObject({
    type: z.literal("require_active_actor"),
    paused_refuses: z.array(z.string()),
    note: z.string().optional(),
    event_types: z.array(z.string()).optional(),
  }),
  shape: false,
  compile(spec) {
    const refused = new Set(spec.paused_refuses);
    return (ctx) => {
      if (ctx.actorType === "system" || !ctx.actorId) return null;
      const actor = ctx.fold.entity(ctx.tenantId, ctx.actorId);
      if (actor?.status) return `actor.entity_id is ${actor.status}`;
      if (actor?.paused && refused.has(ctx.eventType)) return "actor.entity_id is a paused agent";
      return null;
    };
  },
};
