import { z } from "zod";
import { hasContactDetails } from "./contact-details.js";
import { ZPolicyId, ZPolicyMode, ZPolicyOverridesSetPayload, ZPolicyParamName } from "./workspace-events.js";
import { ZCursor, ZEntityId, ZIsoTime } from "./primitives.js";

/**
 * The Admin screens (owners and admins): members and their access, agents, sign-in tokens.
 * Every change is a ledger event the policy pack judges; these are the REST shapes around them.
 */

/** The three levels the Members screen offers; each is a set of authority roles underneath. */
export const ZAccessLevel = z.enum(["owner", "admin", "member"]);
export type TAccessLevel = z.infer<typeof ZAccessLevel>;

const ZLabel = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => v.length > max || !hasContactDetails(v), {
      message: "must not contain an email address or phone number",
    });

export const ZMemberView = z.object({
  entity_id: ZEntityId,
  display_name: z.string(),
  access: ZAccessLevel,
  roles: z.array(z.string()),
  status: z.enum(["active", "deactivated"]),
  joined_at: ZIsoTime,
});
export const ZMemberList = z.object({ members: z.array(ZMemberView) });

export const ZSetAccessRequest = z.strictObject({ access: ZAccessLevel });

export const ZAgentAdminView = z.object({
  entity_id: ZEntityId,
  display_name: z.string(),
  role: z.string().nullable(),
  capabilities: z.array(z.string()),
  /** The tools it may use now (the admin's mode when one is set, else its registration). */
  allowed_tools: z.array(z.string()),
  status: z.enum(["active", "paused"]),
});
export const ZAgentAdminList = z.object({ agents: z.array(ZAgentAdminView) });

export const ZUpdateAgentRequest = z.strictObject({
  display_name: ZLabel(120).optional(),
  role: ZLabel(64).optional(),
  capabilities: z.array(ZLabel(64)).max(30).optional(),
  /** Every tool the agent may use from now on; the others are off for it. */
  allowed_tools: z.array(z.string().min(1).max(128)).max(50).optional(),
});

export const ZTokenView = z.object({
  /** A public id for the token (never the secret, nor its stored hash). */
  token_id: z.string(),
  entity_id: ZEntityId,
  display_name: z.string(),
  created_at: ZIsoTime,
  /** When a request last used it (persisted, to the minute); null when never used since it was issued. */
  last_used_at: ZIsoTime.nullable(),
});
export const ZTokenList = z.object({ tokens: z.array(ZTokenView) });

export const ZAdminWriteResult = z.object({
  entity_id: ZEntityId,
  created_event_ids: z.array(z.string()),
  cursor: ZCursor.optional(),
});

/** Reactivation and rotation answer with a one-click sign-in link for the person (shown once). */
export const ZSignInLinkResult = ZAdminWriteResult.extend({
  signin_url: z.string(),
  revoked: z.number().int().nonnegative().optional(),
});

/**
 * Policy overrides (the Policies screen): each policy of the pack with the mode the pack gives it,
 * the mode in force for this workspace, and the modes a workspace may choose (only the pack's mode
 * when the policy is locked); each parameter a rule names with its range.
 */
export const ZPolicySetting = z.object({
  policy_id: ZPolicyId,
  /** The error code it answers with when it refuses; null for a policy that only records. */
  code: z.string().nullable(),
  applies_to: z.array(z.string()),
  pack_mode: ZPolicyMode,
  mode: ZPolicyMode,
  allowed_modes: z.array(ZPolicyMode),
  locked: z.boolean(),
});
export const ZPolicyParamSetting = z.object({
  name: ZPolicyParamName,
  /** The policy whose rule reads it. */
  policy_id: ZPolicyId,
  /** The deployment's value (the pack's, or the server's setting). */
  default_value: z.number().int(),
  value: z.number().int(),
  min: z.number().int(),
  max: z.number().int(),
});
export const ZPolicySettings = z.object({
  pack_id: z.string(),
  pack_version: z.string(),
  policies: z.array(ZPolicySetting),
  params: z.array(ZPolicyParamSetting),
});
export type TPolicySettings = z.infer<typeof ZPolicySettings>;

/** The workspace's overrides as a whole: what differs from the deployment (an empty set is the pack as it is). */
export const ZPolicyOverridesRequest = ZPolicyOverridesSetPayload;
export type TPolicyOverridesRequest = z.infer<typeof ZPolicyOverridesRequest>;

/** One line of "what changes": a policy's mode or a parameter's value, before and after. */
export const ZPolicyChange = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("mode"), policy_id: ZPolicyId, from: ZPolicyMode, to: ZPolicyMode }),
  z.object({
    kind: z.literal("param"),
    name: ZPolicyParamName,
    policy_id: ZPolicyId,
    from: z.number().int(),
    to: z.number().int(),
  }),
]);
export const ZPolicyPreview = z.object({ changes: z.array(ZPolicyChange) });
export const ZPolicyOverridesResult = z.object({
  changes: z.array(ZPolicyChange),
  created_event_ids: z.array(z.string()),
  cursor: ZCursor.optional(),
});
