import type { TCardActionType } from "../../../contracts/cards.js";
import type { TWhen } from "../../../contracts/when.js";
import type { LlmTurnExtras } from "../llm/types.js";

/**
 * The Planner turns one message, in its context, into one decision. Two implementations sit
 * behind this interface: `rules` (deterministic, the default) and `llm` (one model call).
 * A planner never writes anything: the Job Engine acts on its decision after validation.
 */

export interface PlanTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  mode: "auto" | "approve";
}

export interface PlanJobRef {
  job_id: string;
  title: string;
  state: string;
  conversation_id: string;
}

export interface PlanFrame {
  tenant_id: string;
  conversation_id: string;
  trace_id: string;
  now: string;
  /** The language of the person answered (their profile, else the workspace default); English when absent. */
  locale?: "en" | "pt";
  /** IANA timezone assumed when the message names none. */
  default_timezone: string;
  agent: { entity_id: string; display_name: string; role?: string; allowed_tools: string[] };
  /** MCP tools the agent may call (auto or approve), with the JSON Schema of their arguments. */
  tools?: PlanTool[];
  sender: { entity_id: string; display_name: string };
  /** The text as typed, tokens already replaced by placeholders when the LLM layer is on. */
  text: string;
  /** Jobs the backend offers as candidates (ids the planner may name; nothing else). */
  jobs: PlanJobRef[];
  /** The job the precedence rules chose as the default target, if exactly one. */
  default_job_id?: string;
  /** Contacts of the tenant by display name, for suggesting (never assuming) an attendee. */
  contacts?: Array<{ contact_id: string; display_name: string; email_redacted?: string }>;
  /** The conversation's current job (the header chip), first in the target precedence. */
  focus_job_id?: string;
  /** User- or tool-derived text the model may read as data (recent messages, tool results). */
  documents?: Array<{ doc_id: string; kind: string; text: string }>;
}

export type SlotValues = Partial<{
  duration_minutes: number;
  attendee_name: string;
  attendee_email: string;
  time_window: string;
  timezone: string;
  /** jitsi | link | phone | in_person (older jobs may hold google_meet, zoom or teams: a link to paste). */
  meeting_link: string;
  /** The meeting URL a person pasted (meeting_link "link"). */
  meeting_url: string;
  /** The service of a pasted or requested link ("Zoom"), for labels. */
  link_label: string;
  /** The structured window, resolved by Office from `time_window` (never by a planner). */
  when: TWhen;
  title: string;
  day_hint: string;
}>;

export type Decision = (
  | { type: "chat_reply"; text: string }
  | {
      type: "propose_job";
      /** What kind of work: the rules planner knows `schedule_meeting`; others become `generic`. */
      kind: "schedule_meeting" | "generic";
      title: string;
      goal: string;
      slots: SlotValues;
      constraints?: string[];
      rationale?: string;
    }
  | { type: "continue_job"; job_id: string; slots: SlotValues; text?: string }
  | { type: "request_input"; job_id?: string; question: string; choices?: string[] }
  | { type: "escalate"; job_id?: string; reason: string }
  /** Work none of the agent's tools can do: say so and offer to hand `request` to a person. */
  | { type: "decline_work"; request: string }
  /** The person accepted the offer: hand `request` to a person (the named one, if any) as a job in their chat. */
  | { type: "handoff"; request: string; to_name?: string }
  /** A click-equivalent: a person's `[op …]` token, or a model proposal that passed validation. */
  | { type: "job_action"; job_id: string; action: TCardActionType; args?: Record<string, string>; text?: string }
  /** Call one of the agent's MCP tools (arguments already checked against its schema). */
  | { type: "call_tool"; tool: string; args: Record<string, unknown>; text?: string }
) & {
  /** What the LLM layer adds: ActionSummary, surfaces, safe render, validation report. */
  llm?: LlmTurnExtras;
};

export interface Planner {
  readonly name: "rules" | "llm";
  plan(frame: PlanFrame): Promise<Decision>;
}

/** The planner's decision; a planner that fails (network, invalid output) never blocks the chat: the fallback answers. */
export async function planOrFallback(
  planner: Planner,
  fallback: Planner,
  frame: PlanFrame,
  onError: (e: unknown, where: string) => void,
): Promise<Decision> {
  try {
    return await planner.plan(frame);
  } catch (e) {
    onError(e, "planner");
    return fallback.plan(frame);
  }
}
