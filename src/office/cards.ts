import type { TArtifactRef, TCardButton, TFinishedCard, TFormalizeCard, TInputSchema, TStep, TTrackingCard } from "../../contracts/cards.js";
import type { TJobState } from "../../contracts/primitives.js";

/**
 * Pure card builders: the seed's default button sets, copy and order. Ids and time come in;
 * nothing here reads a clock or the ledger.
 */

export interface CardContext {
  card_id: string;
  job_id: string;
  tenant_id: string;
  conversation_id: string;
  now: string;
  title: string;
  owner: { entity_id: string; display_name: string; actor_type: "human" | "agent" };
  author: { entity_id: string; display_name: string; actor_type: "human" | "agent" | "system" };
}

const base = (c: CardContext, state: TJobState) => ({
  card_id: c.card_id,
  job_id: c.job_id,
  version: "v1" as const,
  title: c.title,
  state,
  created_at: c.now,
  conversation_id: c.conversation_id,
  tenant_id: c.tenant_id,
  owner: c.owner,
  author: c.author,
});

/** Button ids are unique per card instance and say what they are, for readable provenance. */
const bid = (c: CardContext, name: string) => `btn_${name}_${c.card_id.replace(/^card_/, "")}`.slice(0, 128);

const CHANGES_SCHEMA: TInputSchema = {
  fields: [{ key: "changes_request", label: "What should change?", type: "multiline", required: true, placeholder: "e.g. make it 45 minutes, on Zoom" }],
};
export const INFO_SCHEMA: TInputSchema = { fields: [{ key: "info", label: "Details", type: "multiline", required: true }] };

export function askButton(c: CardContext, prompt: string, n = ""): TCardButton {
  return { button_id: bid(c, `askchat${n}`), label: "Ask in chat", style: "secondary", action: { type: "chat.ask", job_id: c.job_id, prompt_text: prompt } };
}

function formalizeButtons(c: CardContext): TCardButton[] {
  return [
    { button_id: bid(c, "approve"), label: "Approve", style: "primary", action: { type: "job.approve", job_id: c.job_id } },
    {
      button_id: bid(c, "reject"),
      label: "Reject",
      style: "danger",
      confirm: { title: "Reject this job?", body: "Office will stop and ask what you want instead." },
      action: { type: "job.reject", job_id: c.job_id },
    },
    {
      button_id: bid(c, "changes"),
      label: "Request changes",
      style: "secondary",
      requires_input: true,
      action: { type: "job.request_changes", job_id: c.job_id, input_schema: CHANGES_SCHEMA },
    },
    askButton(c, "What should change about this job proposal?"),
  ];
}

const ackButton = (c: CardContext): TCardButton => ({ button_id: bid(c, "ack"), label: "Got it", style: "primary", action: { type: "job.ack", job_id: c.job_id } });
const disputeButton = (c: CardContext, body = "Office will pause and ask for clarification."): TCardButton => ({
  button_id: bid(c, "dispute"),
  label: "Dispute",
  style: "danger",
  requires_input: true,
  confirm: { title: "Dispute this update?", body },
  action: { type: "job.dispute", job_id: c.job_id },
});
const cancelButton = (c: CardContext): TCardButton => ({
  button_id: bid(c, "cancel"),
  label: "Cancel",
  style: "danger",
  confirm: { title: "Cancel this job?", body: "Office will stop work on this job." },
  action: { type: "job.cancel", job_id: c.job_id },
});

/** Got it / Provide info / Dispute / Cancel / Ask in chat. */
export function trackingButtons(c: CardContext, inputSchema: TInputSchema = INFO_SCHEMA): TCardButton[] {
  return [
    ackButton(c),
    {
      button_id: bid(c, "input"),
      label: "Provide info",
      style: "secondary",
      requires_input: true,
      action: { type: "job.provide_input", job_id: c.job_id, input_schema: inputSchema },
    },
    disputeButton(c),
    cancelButton(c),
    askButton(c, `Quick question about “${c.title}” — what should I assume?`),
  ];
}

/** While work runs (the Job Drawer's in_progress set): Got it / Dispute / Cancel / Ask in chat. */
export function progressButtons(c: CardContext): TCardButton[] {
  return [ackButton(c), disputeButton(c), cancelButton(c), askButton(c, `Quick question about “${c.title}” — what should I assume?`)];
}

/** A retryable failure: Got it / Retry now / Switch to X / Dispute / Cancel. */
export function retryButtons(c: CardContext, switchTo: { value: string; label: string }): TCardButton[] {
  return [
    ackButton(c),
    { button_id: bid(c, "retry_now"), label: "Retry now", style: "secondary", action: { type: "job.retry", job_id: c.job_id } },
    { button_id: bid(c, "switch_tool"), label: `Switch to ${switchTo.label}`, style: "secondary", action: { type: "job.switch_tool", job_id: c.job_id, to: switchTo.value } },
    disputeButton(c),
    cancelButton(c),
  ];
}

/** The provider needs a connection: Connect calendar / Use X instead / Cancel / Ask in chat. */
export function authButtons(c: CardContext, switchTo: { value: string; label: string }): TCardButton[] {
  return [
    {
      button_id: bid(c, "connect"),
      label: "Connect calendar",
      style: "primary",
      confirm: { title: "Calendar sign-in fixed?", body: "Check CALDAV_URL, CALDAV_USERNAME and CALDAV_PASSWORD on the server, then press Continue and I’ll try again." },
      action: { type: "job.retry", job_id: c.job_id },
    },
    { button_id: bid(c, "switch_tool"), label: `Use ${switchTo.label} instead`, style: "secondary", action: { type: "job.switch_tool", job_id: c.job_id, to: switchTo.value } },
    cancelButton(c),
    askButton(c, "How do I connect the calendar?"),
  ];
}

export function completedButtons(c: CardContext): TCardButton[] {
  return [
    { button_id: bid(c, "accept"), label: "Accept", style: "primary", action: { type: "job.ack", job_id: c.job_id } },
    disputeButton(c, "Office will ask what went wrong."),
    {
      button_id: bid(c, "followup"),
      label: "Follow-up",
      style: "secondary",
      action: { type: "job.follow_up", job_id: c.job_id, prompt_text: "Make a follow-up job based on this outcome." },
    },
    askButton(c, `Any question about “${c.title}”?`),
  ];
}

/** The failed-state set: Try later / Switch tool / Cancel / Ask in chat. */
export function failedButtons(c: CardContext, switchTo: { value: string; label: string }): TCardButton[] {
  return [
    { button_id: bid(c, "try_later"), label: "Try later", style: "primary", action: { type: "job.retry", job_id: c.job_id } },
    { button_id: bid(c, "switch_tool"), label: "Switch tool", style: "secondary", action: { type: "job.switch_tool", job_id: c.job_id, to: switchTo.value } },
    {
      button_id: bid(c, "cancel"),
      label: "Cancel",
      style: "danger",
      confirm: { title: "Close this job?", body: "Nothing more will run for it." },
      action: { type: "job.cancel", job_id: c.job_id },
    },
    askButton(c, `Why did “${c.title}” fail, and what are my options?`),
  ];
}

export function buildFormalizeCard(
  c: CardContext,
  job: TFormalizeCard["job"] & { kind?: string; slots?: Record<string, unknown> },
  extra: { plan_hint?: string[]; parent_job_id?: string } = {},
): TFormalizeCard {
  return {
    ...base(c, "proposed"),
    card_type: "job.formalize",
    summary: "Here’s the job proposal. Approve to start, or request changes.",
    job,
    ...(extra.plan_hint ? { plan_hint: extra.plan_hint } : {}),
    ...(extra.parent_job_id ? { parent_job_id: extra.parent_job_id } : {}),
    buttons: formalizeButtons(c),
  };
}

export function buildTrackingCard(
  c: CardContext,
  t: {
    state: TJobState;
    status_line: string;
    steps: TStep[];
    waiting_on?: Array<{ entity_id: string; display_name: string }>;
    blockers?: string[];
    buttons: TCardButton[];
    artifacts_preview?: TArtifactRef[];
    last_tool_call_id?: string;
  },
): TTrackingCard {
  return {
    ...base(c, t.state),
    card_type: "job.tracking",
    summary: "In progress. You can keep chatting while I work.",
    progress: {
      status_line: t.status_line,
      ...(t.blockers?.length ? { blockers: t.blockers } : {}),
      ...(t.waiting_on?.length ? { waiting_on: t.waiting_on } : {}),
      steps: t.steps,
      last_update_at: c.now,
    },
    artifacts_preview: t.artifacts_preview ?? [],
    ...(t.last_tool_call_id ? { last_tool_call_id: t.last_tool_call_id } : {}),
    buttons: t.buttons,
  };
}

export function buildFinishedCard(
  c: CardContext,
  f: {
    result: TFinishedCard["outcome"]["result"];
    summary: string;
    failure_reason?: string;
    artifacts: TArtifactRef[];
    buttons: TCardButton[];
    next_actions?: TFinishedCard["next_actions"];
  },
): TFinishedCard {
  return {
    ...base(c, f.result),
    card_type: "job.finished",
    summary: f.result === "completed" ? "Done. Review the outcome below." : "I couldn’t finish. See why below.",
    outcome: {
      result: f.result,
      summary: f.summary,
      completed_at: c.now,
      ...(f.failure_reason ? { failure_reason: f.failure_reason } : {}),
    },
    artifacts: f.artifacts,
    ...(f.next_actions ? { next_actions: f.next_actions } : {}),
    buttons: f.buttons,
  };
}
