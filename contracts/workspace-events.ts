import { z } from "zod";
import { LIMITS } from "./facts.js";
import { ZEntityId, ZIsoTime, ZRedactedValue } from "./primitives.js";

/**
 * The payloads that say who is in a workspace and what they may do: people and agents
 * registered, their profiles and roles, deactivation, an agent's tools and pauses, revoked
 * tokens, the workspace's policy overrides, and its contacts. The envelope that carries them is in
 * ./events.ts.
 */

const short = (max: number) => z.string().max(max);

export const ZEntityRegisteredPayload = z.strictObject({
  entity_id: ZEntityId,
  actor_type: z.enum(["human", "agent"]),
  display_name: z.string().min(1).max(120),
  /** Authority roles: job_approver, admin, job_owner, member. */
  roles: z.array(short(64)).max(20).default([]),
  /** Job title shown as a badge (agents: "Scheduler", "Billing Agent"). */
  role: short(64).optional(),
  capabilities: z.array(short(64)).max(30).optional(),
  allowed_tools: z.array(short(128)).max(50).optional(),
  memory_scope: short(64).optional(),
  avatar_url: short(500).optional(),
  /** A person's own address, kept in the vault: invites they ask for list them as an attendee. */
  email: ZRedactedValue.optional(),
});

/** A person's own profile: the name others see, an avatar, their time zone (IANA) and language. */
export const ZEntityProfileUpdatedPayload = z.strictObject({
  entity_id: ZEntityId,
  display_name: z.string().min(1).max(120).optional(),
  /** A picture uploaded to this server (`/v1/avatars/…`), or "" when removed: never an address from elsewhere. */
  avatar_url: z
    .string()
    .regex(/^(?:\/v1\/avatars\/[A-Za-z0-9_-]{1,100})?$/)
    .optional(),
  time_zone: short(64).optional(),
  locale: short(35).optional(),
  /** The person wants an e-mail of what waited on them (DIGEST_AFTER_MINUTES). */
  email_digest: z.boolean().optional(),
  /** false: the others in my conversations see my messages delivered, never read. */
  read_receipts: z.boolean().optional(),
  /** A custom status everyone sees ("" clears it), and when it ends by itself ("" never). */
  status_text: z.string().max(LIMITS.statusChars).optional(),
  status_until: z.union([ZIsoTime, z.literal("")]).optional(),
  /** Do not disturb until then ("" ends it): no notifications, push or digest, meanwhile. */
  dnd_until: z.union([ZIsoTime, z.literal("")]).optional(),
});

/**
 * What an agent may do with one tool, chosen by an admin: `auto` runs without asking, `approve`
 * runs only in a job a person approved, `off` not at all. The policy pack enforces it.
 */
export const ZAgentToolModeSetPayload = z.strictObject({
  agent_entity_id: ZEntityId,
  tool_name: short(128).min(1),
  mode: z.enum(["auto", "approve", "off"]),
});

/**
 * Administration of people and agents. `roles` is the entity's whole new set of authority roles
 * (`owner`, `admin`, `job_approver`, `member`, …): owners and admins change them, only an owner
 * makes or unmakes an owner, and a workspace always keeps one.
 */
export const ZEntityRoleChangedPayload = z.strictObject({ entity_id: ZEntityId, roles: z.array(short(64)).max(20) });

/**
 * A person (or agent) an admin turned off: every token of theirs stops working at once.
 * `removed` is for an agent taken out of the workspace for good (it cannot be reactivated).
 */
export const ZEntityDeactivatedPayload = z.strictObject({
  entity_id: ZEntityId,
  reason: z.enum(["deactivated", "removed"]),
});

/** A deactivated person back in: they sign in again with a new link. */
export const ZEntityReactivatedPayload = z.strictObject({ entity_id: ZEntityId });

/** An agent an admin paused proposes and runs nothing until resumed. */
export const ZAgentPausedPayload = z.strictObject({ entity_id: ZEntityId });
export const ZAgentResumedPayload = z.strictObject({ entity_id: ZEntityId });

/** A policy of the pack, by id (`policy.message_edit_window`). */
export const ZPolicyId = z.string().regex(/^policy\.[a-z0-9_]{1,64}$/, "must be a policy id (policy.<name>)");
/** A deployment parameter a rule names (`message_edit_window_seconds`). */
export const ZPolicyParamName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, "must be a parameter name (lower case, digits, _)");
export const ZPolicyMode = z.enum(["enforce", "warn", "off"]);
/** At most this many overrides of each kind in one set (the pack has far fewer policies). */
export const MAX_POLICY_OVERRIDES = 100;

/**
 * A workspace's overrides of the policy pack, set by an owner or admin: the whole set each time
 * (an empty one returns every policy to the pack). `modes`: policy → enforce / warn / off;
 * `params`: the parameters the pack's rules name → a whole number. Which policies a workspace may
 * change, to which modes, and each parameter's range are the pack's own rule
 * (`policy.override_limits`): tenant isolation, the hash chain's inputs and raw PII never bend.
 */
export const ZPolicyOverridesSetPayload = z.strictObject({
  modes: z.record(ZPolicyId, ZPolicyMode).refine((m) => Object.keys(m).length <= MAX_POLICY_OVERRIDES, {
    message: `at most ${MAX_POLICY_OVERRIDES} policies`,
  }),
  params: z
    .record(ZPolicyParamName, z.number().int().min(0).max(1_000_000_000))
    .refine((m) => Object.keys(m).length <= MAX_POLICY_OVERRIDES, {
      message: `at most ${MAX_POLICY_OVERRIDES} parameters`,
    }),
});

/**
 * An admin ended sign-ins of a person: one token (`token_id`, its public id, never the secret)
 * or all of them; `rotated` when a fresh sign-in link was issued in the same act.
 */
export const ZEntityTokensRevokedPayload = z.strictObject({
  entity_id: ZEntityId,
  token_id: z
    .string()
    .regex(/^tok_[0-9a-f]{20}$/)
    .optional(),
  rotated: z.boolean(),
});

export const ZContactUpsertedPayload = z.strictObject({
  contact_id: short(128).min(1),
  display_name: z.string().min(1).max(120),
  organization: short(120).optional(),
  kind: z.enum(["customer", "vendor", "partner", "other"]).default("other"),
  emails: z.array(ZRedactedValue).max(10).default([]),
  phones: z.array(ZRedactedValue).max(10).default([]),
  notes: short(1000).optional(),
  deleted: z.boolean().optional(),
});
