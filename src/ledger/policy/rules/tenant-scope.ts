import { z } from "zod";
import { fieldPath } from "../paths.js";
import type { RuleContext, RuleType } from "../rule.js";

type Kind = "conversation" | "job" | "entity";
const ZKind = z.enum(["conversation", "job", "entity"]);

/** A field's kind comes from its name (…conversation_id, …job_id, …entity_id) unless given. */
function kindOf(path: string): Kind | undefined {
  const last = path.split(".").pop() ?? "";
  if (last.endsWith("conversation_id")) return "conversation";
  if (last.endsWith("job_id")) return "job";
  if (last.endsWith("entity_id")) return "entity";
  return undefined;
}

/**
 * The event is created-by-this-event exemption: a `conversation.created` names the
 * conversation it creates, a `job.created` the job it creates; neither exists yet.
 */
function createdHere(ctx: RuleContext, kind: Kind, value: string): boolean {
  const p = ctx.event.payload as Record<string, unknown> | undefined;
  if (kind === "conversation") return ctx.eventType === "conversation.created" && p?.conversation_id === value;
  if (kind === "job") return ctx.eventType === "job.created" && p?.job_id === value;
  return false;
}

function exists(ctx: RuleContext, kind: Kind, value: string): boolean {
  if (kind === "conversation") return ctx.fold.hasConversation(ctx.tenantId, value);
  if (kind === "job") return ctx.fold.job(ctx.tenantId, value) !== undefined;
  return ctx.fold.entity(ctx.tenantId, value) !== undefined;
}

/**
 * Every object the event names must belong to the event's tenant: ids are tenant-scoped, so
 * "belongs" means the tenant's own ledger created it (a conversation.created, a job.created, an
 * entity.registered). System actors are the platform itself and are not tenant entities.
 */
export const enforceTenantScope: RuleType<{
  scope_fields: Array<string | { field: string; kind: Kind }>;
  exempt_actor_types?: string[] | undefined;
}> = {
  schema: z.strictObject({
    type: z.literal("enforce_tenant_scope"),
    scope_fields: z
      .array(z.union([z.string().min(1), z.strictObject({ field: z.string().min(1), kind: ZKind })]))
      .min(1),
    exempt_actor_types: z.array(z.string()).optional(),
    note: z.string().optional(),
    event_types: z.array(z.string()).optional(),
  }),
  shape: false,
  compile(spec) {
    const fields = spec.scope_fields.map((f) => {
      const field = typeof f === "string" ? f : f.field;
      const kind = typeof f === "string" ? kindOf(f) : f.kind;
      if (!kind) throw new Error(`enforce_tenant_scope: cannot tell what ${field} names; write {"field", "kind"}`);
      return { path: fieldPath(field), kind, isActor: field === "actor.entity_id" };
    });
    const exempt = new Set(spec.exempt_actor_types ?? ["system"]);
    return (ctx) => {
      for (const f of fields) {
        if (f.isActor && exempt.has(String(ctx.actorType))) continue;
        for (const v of f.path.all(ctx.event)) {
          if (typeof v !== "string") continue;
          if (createdHere(ctx, f.kind, v) || exists(ctx, f.kind, v)) continue;
          return `${f.path.path} does not name a${f.kind === "entity" ? "n" : ""} ${f.kind} of this tenant`;
        }
      }
      return null;
    };
  },
};
