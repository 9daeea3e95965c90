import type { AgentToolView, ConversationTool } from "./mcp/agent-tools.js";
import type { McpServerStatus } from "./mcp/hub.js";
import type { OutboxDelivery } from "./mail/index.js";

/** One refused inbound mail, as admins see it. */
interface InboundRefusal {
  key: string;
  reason: string;
  detail: string | null;
  job_id: string | null;
  received_at: string;
}
import type {
  TAffordancesRequest,
  TAffordancesResponse,
  TIngestMessageRequest,
  TJobActionRequest,
  TOfficeResponse,
} from "../../contracts/office.js";
import type { TRedactedValue } from "../../contracts/events.js";
import type { TAssistResponse, TThreadContextView } from "../../contracts/llm.js";
import type { TWhyResponse } from "../../contracts/people.js";
import type { EmitOptions } from "./emitter.js";

/**
 * Work the gateway accepted for Office. Each names the accepted event it answers: the
 * message's own id, or the click's bubble (`causation_id`).
 */
export type InboxWork =
  | { kind: "message"; request: TIngestMessageRequest & { message_event_id: string } }
  | { kind: "job_action"; request: TJobActionRequest & { causation_id: string } }
  | { kind: "suggestion"; request: ApplySuggestionInput & { causation_id: string } }
  /** A hand-over an earlier version wrote without its card (`causation_id` is its `job.handed_over`): the card that replaces the agent's. */
  | { kind: "hand_over"; request: { tenant_id: string; trace_id: string; job_id: string; causation_id: string } };

/** A person hands a job over (to someone else, or to themselves). */
export interface HandOverRequest {
  tenant_id: string;
  trace_id: string;
  job_id: string;
  actor_entity_id: string;
  to_entity_id: string;
  note?: string;
}

/** A person's Apply of an Assist suggestion. */
export interface ApplySuggestionInput {
  tenant_id: string;
  trace_id: string;
  job_id: string;
  suggestion_id: string;
  actor_entity_id: string;
  confirm?: boolean;
}

/** One stored request/response packet, as the Job Drawer shows it. */
interface LlmPacketView {
  id: string;
  turn: number;
  created_at: string;
  packet_type: "request" | "response";
  model_id: string | null;
  outcome: string | null;
  redaction: "default" | "full";
  packet: Record<string, unknown>;
}

export interface StoredArtifact {
  artifact_id: string;
  tenant_id: string;
  job_id?: string;
  filename: string;
  mime_type: string;
  bytes: Buffer;
}

export interface AgentTrajectory {
  tenant_id: string;
  entity_id: string;
  display_name: string;
  role?: string;
  capabilities: string[];
  allowed_tools: string[];
  jobs: Array<{
    job_id: string;
    title: string;
    state: string;
    conversation_id: string;
    created_at: string;
    outcome?: string;
    approvals: Array<{ by: string; at: string; action: string; reason?: string }>;
    disputes: Array<{ by: string; at: string; reason: string }>;
  }>;
  open_commitments: Array<{ job_id: string; title: string; state: string }>;
}

/** Encrypted store for PII; the ledger only ever sees the redacted value, hash and pointer. */
export interface VaultApi {
  put(
    tenantId: string,
    kind: "email" | "phone" | "text",
    value: string,
  ): TRedactedValue & { vault_ref: string; hash: string };
  get(tenantId: string, vaultRef: string): string | null;
  /** Erases the value for good; events that point at it keep verifying. */
  erase(tenantId: string, vaultRef: string): boolean;
  /**
   * The tenant-salted BLAKE3 hash `put` would store for a value, without storing anything
   * (looking an address up; what a deleted message's event keeps of its text).
   */
  hashOf(tenantId: string, kind: "email" | "phone" | "text", value: string): string;
}

/**
 * Office: the agent runtime. Its methods mirror /v1/office/*. It decides every job transition
 * and writes only through the LedgerApi; each call resolves with the ids it appended.
 */
export interface OfficeApi {
  /**
   * Takes work for Office into its durable inbox: call it inside the commit that writes the
   * accepted event (the gateway's commit `extra`), so the work exists exactly when the event
   * does. Office answers it after the commit, or at its next start if the process stops first,
   * exactly once: the first event it writes in answer removes the work in the same transaction.
   */
  accept(work: InboxWork): void;
  /** Accepted work not answered yet. */
  inboxPending(): number;
  /**
   * Shutdown: takes up no more accepted work and waits up to `ms` for what is running. Whatever
   * is unfinished is answered at the next start.
   */
  drain(ms: number): Promise<{ drained: boolean; left: number }>;
  /** A person's message in a conversation with an agent: chat reply, proposal, or continuation. */
  ingestMessage(req: TIngestMessageRequest): Promise<TOfficeResponse>;
  /** A card button click; refuses actions the job's state or the card does not allow. */
  jobAction(req: TJobActionRequest): Promise<TOfficeResponse>;
  /**
   * Synchronous pre-check of a click, no writes: provenance, state, and the input against the
   * card's input_schema. Throws AppError (INVALID_INPUT with details.fields, INVALID_PROVENANCE,
   * ILLEGAL_JOB_TRANSITION, NOT_FOUND) so the gateway can answer the person at once.
   */
  checkJobAction(req: TJobActionRequest): void;
  /**
   * Hands an open job to a person of its conversation (POST /v1/jobs/:id/hand-over): the
   * `job.handed_over`, a line saying so and the card that replaces the agent's, in one batch.
   * `withinCommit` runs inside that batch's commit (the caller's idempotency record). Throws the
   * AppError the person sees (NOT_FOUND, VALIDATION_ERROR, CONFLICT, ILLEGAL_JOB_TRANSITION, or
   * the policy pack's refusal).
   */
  handOver(
    req: HandOverRequest,
    opts?: EmitOptions,
  ): Promise<{ ids: string[]; job_id: string; owner_entity_id: string }>;
  affordances(req: TAffordancesRequest): Promise<TAffordancesResponse>;
  /** `canSee` limits the jobs to conversations the reader may read (undefined: all). */
  trajectory(
    tenantId: string,
    entityId: string,
    canSee?: (conversationId: string) => boolean,
  ): Promise<AgentTrajectory>;
  /** A file Office produced (e.g. an .ics invite), or null when not this tenant's. */
  artifact(tenantId: string, artifactId: string): StoredArtifact | null;
  vault: VaultApi;
  /**
   * A Jitsi Meet room for a call someone starts, named like a meeting's room (a keyed hash of
   * `key`: unguessable, the same for the same key); null when no Jitsi server was configured.
   */
  callRoomUrl(key: string): string | null;
  /** Whether calls can be started (a Jitsi Meet server was configured). */
  readonly calls: boolean;
  /** Throws INVALID_TOKEN when a token a person typed is malformed or names a job not on offer; no writes. */
  checkMessage(req: { tenant_id: string; conversation_id: string; actor_entity_id: string; body_text: string }): void;
  /** The conversation's ThreadContext (pinned job, changed target, last and recent jobs). */
  threadContext(tenantId: string, conversationId: string): TThreadContextView;
  /** Pin (or unpin with null) a job, or change the target later messages default to; persisted. */
  setThreadContext(
    tenantId: string,
    conversationId: string,
    what: "pin" | "target",
    jobId: string | null,
  ): TThreadContextView;
  /** Assist: validated suggestions for one job (one model call with the LLM planner, the job's slots otherwise). */
  assist(tenantId: string, jobId: string, traceId: string): Promise<TAssistResponse>;
  /**
   * Synchronous pre-check of Apply, no writes: the job, membership, that the suggestion is still
   * offered (stored, unexpired, not applied) and confirmation. Throws NOT_FOUND or VALIDATION_ERROR.
   */
  checkSuggestion(req: ApplySuggestionInput): void;
  /**
   * Marks the suggestion applied, synchronously, so the gateway can run it inside the commit of
   * the person's click (a second click finds it taken and rolls back). Returns its one-line preview.
   */
  claimSuggestion(req: ApplySuggestionInput): string;
  /** The LLM packets stored for a job (redacted unless OFFICE_LLM_LOG_FULL=1), newest first. */
  llmPackets(tenantId: string, jobId: string): LlmPacketView[];
  /**
   * Mails the organizer's mailbox held that were refused (not an answer, spoofed, unmatched…),
   * newest first, at most `limit`: the tenant's own and those that matched no job. No address,
   * no content: the mailbox position, the reason, a short detail, the job when one matched.
   */
  inboundRefusals(tenantId: string, limit: number): { mailbox_configured: boolean; refusals: InboundRefusal[] };
  /** The tenant's outgoing email (invites), newest first, with whether mail is configured at all. */
  outbox(tenantId: string): { mail_configured: boolean; messages: OutboxDelivery[] };
  /**
   * Sends a message again now (refused, or waiting for a retry), as its job's Resend does: the job
   * goes back to work and the next attempt is recorded as a mail.send call. CONFLICT when the
   * message was sent already or its job is closed.
   */
  resendOutbox(tenantId: string, outboxId: string): Promise<TOfficeResponse>;
  /** An agent's tools (built-in and MCP) with the modes admins chose; null when no such agent. */
  agentTools(tenantId: string, agentEntityId: string): AgentToolView[] | null;
  /** The MCP tools the conversation's agent may use (auto or approve), with their input schemas. */
  conversationTools(
    tenantId: string,
    conversationId: string,
  ): { agent_entity_id: string | null; tools: ConversationTool[] };
  /** A job's "Why?": its causal chain told from its ledger events, each line linking into the Job Drawer. NOT_FOUND when no such job. */
  explainJob(tenantId: string, jobId: string, readerLocale?: string): Promise<TWhyResponse>;
  /** GET /v1/admin/mcp: each MCP server's state (connected / failing and why) and its tools. */
  mcpStatus(): McpServerStatus[];
}
