import type { RuleType } from "../rule.js";
import { adminAuthority, keepAnOwner, requireActiveActor } from "./admin.js";
import { allowIf, requireConversationMembership } from "./authority.js";
import { emitOnReject } from "./emit.js";
import { policyOverrides } from "./overrides.js";
import { requireActorTypeIn, requireContains, requireFields, requireIf, requireIn } from "./fields.js";
import { fsm } from "./fsm.js";
import { requireJobStateIn } from "./job-state.js";
import { lockMappingOnFirstSeen } from "./lock.js";
import { requireMessageAgeWithin, requireMessageAuthor, requireMessageInConversation } from "./message.js";
import { allowIfPresent, rejectIfRegexMatch } from "./pii.js";
import { monotonicTime, requirePriorEvent } from "./prior-event.js";
import { requireButtonProvenance } from "./provenance.js";
import { enforceTenantScope } from "./tenant-scope.js";
import { uniquePerTenant } from "./unique.js";

/** Every rule type a pack may use. A new rule of an existing type is data; a new type is code here. */
export const RULE_TYPES: Record<string, RuleType> = {
  require_fields: requireFields,
  require_actor_type_in: requireActorTypeIn,
  require_in: requireIn,
  require_if: requireIf,
  require_contains: requireContains,
  enforce_tenant_scope: enforceTenantScope,
  unique_per_tenant: uniquePerTenant,
  lock_mapping_on_first_seen: lockMappingOnFirstSeen,
  fsm,
  require_conversation_membership: requireConversationMembership,
  allow_if: allowIf,
  require_button_provenance: requireButtonProvenance,
  require_prior_event: requirePriorEvent,
  monotonic_time: monotonicTime,
  require_job_state_in: requireJobStateIn,
  reject_if_regex_match: rejectIfRegexMatch,
  allow_if_present: allowIfPresent,
  emit_on_reject: emitOnReject,
  require_message_in_conversation: requireMessageInConversation,
  require_message_author: requireMessageAuthor,
  require_message_age_within: requireMessageAgeWithin,
  admin_authority: adminAuthority,
  keep_an_owner: keepAnOwner,
  require_active_actor: requireActiveActor,
  policy_overrides: policyOverrides,
};
