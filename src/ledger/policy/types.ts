import type { TPolicySettings } from "../../../contracts/admin.js";
import type { TUblEvent } from "../../../contracts/events.js";
import type { TJobState } from "../../../contracts/primitives.js";
import type { LedgerFacts } from "../ledger-api.js";

export type PolicyMode = "enforce" | "warn" | "off";

/** A workspace's overrides of the pack: policy → mode, parameter → value. */
export interface PolicyOverrides {
  readonly modes: ReadonlyMap<string, PolicyMode>;
  readonly params: ReadonlyMap<string, number>;
}

/** What an agent may do with a tool (agent.tool_mode_set). */
export type TToolMode = "auto" | "approve" | "off";

/** A job as the fold knows it. */
export interface JobFacts {
  readonly state: TJobState;
  /** True once a person approved it (job.approved). */
  readonly approved?: boolean;
  /** Locked by `job.created`; every later event of the job must name this conversation. */
  readonly conversation_id: string;
  readonly owner_entity_id: string;
  readonly title: string;
  /** The person whose message started the job (job.created by them, or caused by their message). */
  readonly requested_by?: string;
}

/** A card seen in the ledger (embedded in a job event or sent as a card message). */
export interface CardFacts {
  readonly job_id: string;
  readonly conversation_id: string;
  /** button_id → the button's declared action type (union over every version of the card). */
  readonly buttons: ReadonlyMap<string, string>;
  /** True once the card was offered in a `message.sent` of kind `card` (what a click can point at). */
  readonly messaged: boolean;
}

/** A conversation as the fold knows it: its members now, who created it, direct or group. */
export interface ConversationFacts {
  readonly created_by: string;
  /** A direct chat becomes a group when someone else is added. */
  readonly kind: "direct" | "group";
  /** A public channel: anyone of the workspace may join it. */
  readonly public: boolean;
  readonly members: ReadonlySet<string>;
}

export interface ToolCallFacts {
  readonly job_id: string | undefined;
  readonly tool_name: string;
  /** `ts` of the `tool.called`, epoch ms. */
  readonly ts_ms: number;
  readonly idempotency_key: string;
  /** True once a `tool.result` for it was accepted. */
  readonly has_result: boolean;
}

/** A chat message (`message.sent`) as the fold knows it. */
export interface MessageFacts {
  readonly conversation_id: string;
  readonly author_entity_id: string;
  /** `ts` of the `message.sent`, epoch ms. */
  readonly ts_ms: number;
  /** True once a `message.deleted` for it was accepted. */
  readonly deleted: boolean;
}

/** A plain, key-sorted picture of the fold, for equality checks (rebuilt vs live). */
export type FoldSnapshot = Record<string, unknown>;

/** What the ledger knows about a tenant, folded from its events; what the policy rules read. */
export interface LedgerFold extends LedgerFacts {
  /** Folds one accepted event in. */
  apply(event: TUblEvent): void;
  /** Marks the current state so a refused batch (or a failed commit) can be undone. */
  mark(): number;
  /** Undoes everything applied after `mark`. */
  rollbackTo(mark: number): void;
  /** Forgets undo information up to `mark` once a commit is durable. */
  release(mark: number): void;
}

/**
 * The fold the pack's rules read (what `createFold()` returns): LedgerFold plus the facts the
 * rules need beyond LedgerFacts, and a snapshot for equality checks.
 */
export interface PolicyFold extends LedgerFold {
  job(tenantId: string, jobId: string): JobFacts | undefined;
  /** True for a conversation created in this tenant, and always for the reserved workspace one. */
  hasConversation(tenantId: string, conversationId: string): boolean;
  card(tenantId: string, cardId: string): CardFacts | undefined;
  conversation(tenantId: string, conversationId: string): ConversationFacts | undefined;
  toolCall(tenantId: string, toolCallId: string): ToolCallFacts | undefined;
  message(tenantId: string, messageId: string): MessageFacts | undefined;
  hasToolIdempotencyKey(tenantId: string, jobId: string | undefined, toolName: string, key: string): boolean;
  hasEvent(tenantId: string, eventId: string): boolean;
  entityCount(tenantId: string): number;
  /** The workspace's overrides of the pack (its last `policy.overrides_set`), if it set any. */
  policyOverrides(tenantId: string): PolicyOverrides | undefined;
  /** People with the `owner` role who are not deactivated. */
  activeOwnerCount(tenantId: string): number;
  /** Key-sorted plain data of every tenant; two folds of the same events have equal snapshots. */
  snapshot(): FoldSnapshot;
}

export interface PolicyViolation {
  /** null when the refusal is not a pack policy (e.g. an unknown event type). */
  policy_id: string | null;
  code: string;
  message_safe: string;
}

export type PolicyDecision =
  | { ok: true; event: TUblEvent; warnings: PolicyViolation[] }
  | { ok: false; violation: PolicyViolation; warnings: PolicyViolation[] };

export interface ViolationEventContext {
  event_id: string;
  ts: string;
  mode: "enforce" | "warn";
  /** The batch's tenant: the violation is written there (the raw event's claim is used only without it). */
  tenant_id?: string | undefined;
  /**
   * The fold the refused event was checked against. When given (or remembered from the last
   * `check`), the violation event names the event's conversation/job only if they exist in the
   * tenant, so the violation event itself always passes the pack.
   */
  fold?: LedgerFold | undefined;
}

export interface PolicyEngine {
  /**
   * Checks one raw (unparsed) event against the schemas and every policy in the pack, reading
   * the fold as it is now. Pure: it never mutates the fold.
   */
  check(fold: LedgerFold, raw: unknown): PolicyDecision;
  /** Per-tenant override of a policy's mode. */
  setTenantMode(tenantId: string, policyId: string, mode: PolicyMode): void;
  /**
   * The `policy.violation` event to append for a refusal (or a warning), per the pack's
   * emit_on_reject rule; null when the pack emits nothing for it.
   */
  violationEvent(raw: unknown, violation: PolicyViolation, ctx: ViolationEventContext): TUblEvent | null;
  /**
   * Each policy and tunable parameter for one workspace: the pack's mode, the one in force, the
   * modes it may be given (engines without overrides may leave this out).
   */
  settings?(fold: LedgerFold, tenantId: string): TPolicySettings;
}

/** What `createPolicyEngine` returns: PolicyEngine plus introspection. */
export interface PackPolicyEngine extends PolicyEngine {
  /** The effective mode of a policy for a tenant (tenant override, else the pack's). */
  modeOf(tenantId: string | undefined, policyId: string): PolicyMode;
  /** Policy ids in pack order. */
  readonly policyIds: readonly string[];
  readonly packId: string;
  readonly packVersion: string;
  settings(fold: LedgerFold, tenantId: string): TPolicySettings;
}
