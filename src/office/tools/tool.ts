import type { z } from "zod";
import type { TArtifactRef } from "../../../contracts/cards.js";

/** The seed's tool error codes, and CANCELLED: a person stopped the call (never retried). */
const TOOL_ERROR_CODES = [
  "PROVIDER_TIMEOUT",
  "PROVIDER_RATE_LIMIT",
  "PROVIDER_AUTH_REQUIRED",
  "INVALID_INPUT",
  "PROVIDER_UNAVAILABLE",
  "UNKNOWN",
  "CANCELLED",
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

interface ToolError {
  error_code: ToolErrorCode;
  message_safe: string;
  retryable: boolean;
  suggested_wait_seconds?: number;
}

/** A provider failure, thrown by providers and turned into a `tool.result` error by the router. */
export class ToolFailure extends Error {
  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly suggestedWaitSeconds?: number,
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}

export interface ToolContext {
  tenant_id: string;
  job_id: string;
  idempotency_key: string;
  attempt: number;
  now: number;
  /** Cancels the call (an MCP server is sent the protocol's cancellation). */
  signal?: AbortSignal;
  /** Progress the tool reports during the call. */
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
}

export type ToolOutcome =
  | { ok: true; output: Record<string, unknown>; artifacts: TArtifactRef[] }
  | { ok: false; error: ToolError };

/**
 * A registered tool. `input` is the runtime shape (may hold vault pointers, never raw PII);
 * `sanitize` is what the ledger sees. `run` resolves PII from the vault itself, at execution
 * time only. `output` validates what the tool reports before it reaches the ledger.
 */
export interface ToolDefinition<I = unknown> {
  name: string;
  version: string;
  description: string;
  side_effects: boolean;
  input: z.ZodType<I>;
  output: z.ZodType<Record<string, unknown>>;
  purpose(input: I): string;
  sanitize(input: I): { inputs: Record<string, unknown>; redactions_applied: string[]; hashes_applied: string[] };
  /** Which provider answers (the circuit breaker counts failures per tenant and provider). */
  providerOf(input: I): string;
  run(input: I, ctx: ToolContext): Promise<ToolOutcome>;
}
