import {
  SYSTEM_POLICY_ENTITY_ID,
  WORKSPACE_CONVERSATION_ID,
  ZUblEvent,
  type TUblEvent,
} from "../../../contracts/events.js";
import type { EmitOnRejectSpec } from "./rules/emit.js";
import type { PolicyFold, PolicyViolation, ViolationEventContext } from "./types.js";

/** Longest value each payload field may hold (contracts/events.ts ZPolicyViolationPayload). */
const MAX: Record<string, number> = {
  violated_policy_id: 128,
  code: 64,
  event_type: 64,
  event_id: 128,
  message_safe: 500,
};

/** The id used in `violated_policy_id` when the refusal came from the schema gate, not a policy. */
const SCHEMA_GATE_ID = "schema_gate";

const idOf = (v: unknown): string | undefined =>
  typeof v === "string" && v.length > 0 && v.length <= 128 ? v : undefined;

/**
 * The `policy.violation` for a refused (or warned) event, signed by the system policy actor.
 * It names the event's conversation and job only when the fold confirms they are the tenant's
 * own (else the workspace conversation), so the violation event always passes the pack itself.
 * Never emitted about a `policy.violation` (a warning about a warning would never end).
 */
export function buildViolationEvent(
  raw: unknown,
  violation: PolicyViolation,
  ctx: ViolationEventContext,
  spec: EmitOnRejectSpec,
): TUblEvent | null {
  const r = (typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  if (r.event_type === "policy.violation") return null;
  // The batch's tenant wins over what the raw event claims: a violation is recorded in the
  // ledger of the tenant that sent it, and names only that tenant's objects.
  const tenantId = ctx.tenant_id ?? idOf(r.tenant_id);
  if (!tenantId) return null;

  const fold = ctx.fold as Partial<PolicyFold> | undefined;
  const conv = idOf(r.conversation_id);
  const conversationId = conv && fold?.hasConversation?.(tenantId, conv) ? conv : WORKSPACE_CONVERSATION_ID;
  const job = idOf(r.job_id);
  const jobId = job && fold?.jobConversation?.(tenantId, job) === conversationId ? job : undefined;

  const vars: Record<string, string> = {
    policy_id: violation.policy_id ?? SCHEMA_GATE_ID,
    code: violation.code,
    event_type: typeof r.event_type === "string" && r.event_type ? r.event_type : "unknown",
    event_id: typeof r.event_id === "string" && r.event_id ? r.event_id : "unknown",
    message_safe: violation.message_safe,
    mode: ctx.mode,
  };
  const payload: Record<string, unknown> = {};
  for (const [key, template] of Object.entries(spec.payload_template)) {
    const value = template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? "");
    payload[key] = MAX[key] ? value.slice(0, MAX[key]) : value;
  }
  payload.mode = ctx.mode;

  const event = {
    event_id: ctx.event_id,
    event_type: "policy.violation",
    ts: ctx.ts,
    tenant_id: tenantId,
    trace_id: idOf(r.trace_id) ?? `trc_${ctx.event_id}`.slice(0, 128),
    conversation_id: conversationId,
    ...(jobId ? { job_id: jobId } : {}),
    actor: { entity_id: spec.actor_entity_id ?? SYSTEM_POLICY_ENTITY_ID, actor_type: "system" },
    payload,
  };
  return ZUblEvent.parse(event);
}
