import type { RenderDoc } from "./render-ast.js";
import type { Surface } from "./surfaces.js";
import type { TargetSource } from "./thread-context.js";

/**
 * Shown under the agent's reply for every executed action: which job it hit, whether that
 * was an assumption, and what the person may switch it to (contract §2.5).
 */
export interface ActionSummary {
  job_id: string;
  job_title: string;
  action: string;
  /** True unless a person's token named the job. */
  assumed: boolean;
  /** Where the target came from: a token, the precedence rules, or the model's pick among candidates. */
  source: TargetSource | "model";
  /** "Applied to: Schedule call with Maria" (+ why, when assumed). */
  text: string;
  /** Jobs the Change control may offer (the other candidates of this turn). */
  change_candidates: Array<{ job_id: string; title: string }>;
}

/** One thing validation refused, kept for the drawer's audit view. */
export interface DroppedItem {
  what: "operation" | "surface" | "render" | "citation" | "answer";
  index?: number;
  reason: string;
}

export interface LlmTurnExtras {
  action_summary?: ActionSummary;
  surfaces?: Surface[];
  render?: RenderDoc;
  citations?: Array<{ doc_id: string; quote: string }>;
  /** Clarifying choices as `[ref …]` tokens, so a click carries identity instead of a name. */
  choice_refs?: Array<{ label: string; token: string }>;
  /** A confirmation button's `[op …]` token when a model proposal needs a person's click. */
  confirm_op?: { label: string; token: string };
  dropped: DroppedItem[];
  /** The outcome class, for logs and tests. */
  outcome: "executed" | "clarify" | "reply" | "calm_error" | "token_error";
  /** Set when the person's tokens were refused: no model call, no writes. */
  token_error?: { code: string; message: string; index: number };
  request_packet_id?: string;
  turn?: number;
}
