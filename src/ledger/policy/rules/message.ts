import { z } from "zod";
import { fieldPath } from "../paths.js";
import type { RuleType } from "../rule.js";

const common = { note: z.string().optional(), event_types: z.array(z.string()).optional() };

/**
 * The message named at `message_field` was sent in this tenant, in the event's own conversation
 * (or the one at `conversation_field`), and is not deleted; with `author_field`, by the entity
 * named there. With `optional`, an event without that field passes (a reply is optional).
 */
export const requireMessageInConversation: RuleType<{
  message_field: string;
  conversation_field?: string | undefined;
  author_field?: string | undefined;
  optional?: boolean | undefined;
}> = {
  schema: z.strictObject({
    type: z.literal("require_message_in_conversation"),
    message_field: z.string(),
    conversation_field: z.string().optional(),
    author_field: z.string().optional(),
    optional: z.boolean().optional(),
    ...common,
  }),
  shape: false,
  compile(spec) {
    const at = fieldPath(spec.message_field);
    const where = spec.conversation_field !== undefined ? fieldPath(spec.conversation_field) : null;
    const by = spec.author_field !== undefined ? fieldPath(spec.author_field) : null;
    return (ctx) => {
      const id = at.get(ctx.event);
      if (id === undefined && spec.optional) return null;
      const m = typeof id === "string" ? ctx.fold.message(ctx.tenantId, id) : undefined;
      const conversationId = where ? where.get(ctx.event) : ctx.event.conversation_id;
      if (!m || m.conversation_id !== conversationId)
        return `${at.path} does not name a message of ${where ? `the conversation at ${where.path}` : "this conversation"}`;
      if (by && by.get(ctx.event) !== m.author_entity_id)
        return `${by.path} is not the author of the message at ${at.path}`;
      return m.deleted ? `${at.path} names a deleted message` : null;
    };
  },
};

/** The actor wrote the message at `message_field`, or (with `or_role`) has that role. */
export const requireMessageAuthor: RuleType<{ message_field: string; or_role?: string | undefined }> = {
  schema: z.strictObject({
    type: z.literal("require_message_author"),
    message_field: z.string(),
    or_role: z.string().optional(),
    ...common,
  }),
  shape: false,
  compile(spec) {
    const at = fieldPath(spec.message_field);
    return (ctx) => {
      const id = at.get(ctx.event);
      const m = typeof id === "string" ? ctx.fold.message(ctx.tenantId, id) : undefined;
      if (m && ctx.actorId === m.author_entity_id) return null;
      if (spec.or_role && ctx.actorId && ctx.fold.entity(ctx.tenantId, ctx.actorId)?.roles.includes(spec.or_role))
        return null;
      return `${ctx.eventType} is allowed only for the author of ${at.path}${spec.or_role ? ` or the role ${spec.or_role}` : ""}`;
    };
  },
};

/**
 * The event's `ts` is at most `max_age_seconds` after the message's. A deployment may set the
 * value through the engine parameter named by `param` (MESSAGE_EDIT_WINDOW_SECONDS for edits), and a
 * workspace its own (`policy.overrides_set`).
 * Both times are the ledger's own, so the check is the same whoever replays it.
 */
export const requireMessageAgeWithin: RuleType<{
  message_field: string;
  max_age_seconds: number;
  param?: string | undefined;
}> = {
  schema: z.strictObject({
    type: z.literal("require_message_age_within"),
    message_field: z.string(),
    max_age_seconds: z.number().int().positive(),
    param: z.string().optional(),
    ...common,
  }),
  shape: false,
  compile(spec) {
    const at = fieldPath(spec.message_field);
    return (ctx) => {
      // Read per event: a workspace may set its own value (policy.overrides_set).
      const seconds = (spec.param !== undefined ? ctx.param(spec.param) : undefined) ?? spec.max_age_seconds;
      const id = at.get(ctx.event);
      const m = typeof id === "string" ? ctx.fold.message(ctx.tenantId, id) : undefined;
      const ts = Date.parse(String(ctx.event.ts));
      if (m && Number.isFinite(ts) && ts - m.ts_ms <= seconds * 1000) return null;
      return `${ctx.eventType} is allowed only within ${seconds} s of the message at ${at.path}`;
    };
  },
};
