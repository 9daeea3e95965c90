import type { TStoredEvent } from "../../contracts/events.js";
import type { TWhyLine, TWhyResponse } from "../../contracts/people.js";
import type { LedgerApi } from "../ledger/index.js";
import { AppError } from "../shared/errors.js";
import { queryAll } from "./ledger-reads.js";

/** How far back before a job's creation its causing message is looked for. */
const CAUSE_LOOKBACK = 200;
const QUOTE_CHARS = 160;

/**
 * "Why did you do that?": a job's causal chain told from its ledger events only — the message
 * that started it, the proposal, approvals and refusals, policy decisions, tool calls and their
 * results, hand-overs and the outcome. Each line names the event it was built from and links to
 * it in the Job Drawer. Nothing here is inferred: an event that is not in the ledger is not told.
 */
export function explainJob(deps: { ledger: LedgerApi; name: (tenantId: string, entityId: string) => string }, tenantId: string, jobId: string): TWhyResponse {
  const events = queryAll(deps.ledger, { tenant_id: tenantId, job_id: jobId });
  const created = events.find((e) => e.event_type === "job.created");
  if (created?.event_type !== "job.created") throw new AppError("NOT_FOUND", "Job not found");
  const name = (id: string) => deps.name(tenantId, id);
  const lines: TWhyLine[] = [];
  const add = (e: TStoredEvent, text: string) =>
    lines.push({ event_id: e.event_id, event_type: e.event_type, ts: e.ts, text, url: `/jobs/${encodeURIComponent(jobId)}#${encodeURIComponent(e.event_id)}` });

  const cause = created.causation_id ? findCause(deps.ledger, tenantId, created.causation_id, created.seq) : undefined;
  if (cause?.event_type === "message.sent") {
    const who = name(cause.actor.entity_id);
    // A message from another conversation is named, never quoted: this chain is read by this job's conversation.
    if (cause.conversation_id === created.conversation_id && cause.payload.body_text) add(cause, `It started with ${who}’s message: “${clip(cause.payload.body_text)}”`);
    else add(cause, `It started with a message from ${who} in another conversation.`);
  }
  let title = created.payload.title;
  for (const e of events) {
    switch (e.event_type) {
      case "job.created":
        add(e, `${name(e.actor.entity_id)} opened the job “${e.payload.title}”.`);
        break;
      case "job.proposed":
        title = e.payload.proposed_card.title;
        add(e, `${name(e.actor.entity_id)} proposed it for approval: ${clip(e.payload.proposed_card.job.goal)}`);
        break;
      case "job.approved":
        add(e, `${name(e.actor.entity_id)} approved it.`);
        break;
      case "job.rejected":
        add(e, `${name(e.actor.entity_id)} rejected it${e.payload.reason_text ? `: ${clip(e.payload.reason_text)}` : "."}`);
        break;
      case "job.changes_requested":
        add(e, `${name(e.actor.entity_id)} asked for changes: ${clip(e.payload.changes_text)}`);
        break;
      case "job.input_provided":
        add(e, `${name(e.actor.entity_id)} provided ${Object.keys(e.payload.inputs).join(", ") || "input"}.`);
        break;
      case "job.state_changed":
        add(
          e,
          `It went from ${words(e.payload.prev_state)} to ${words(e.payload.next_state)}${e.payload.reason_code ? ` (${e.payload.reason_code})` : ""}${e.payload.note ? `: ${clip(e.payload.note)}` : "."}`,
        );
        break;
      case "tool.called":
        add(
          e,
          `${name(e.actor.entity_id)} called ${e.payload.tool_name}${(e.payload.attempt ?? 1) > 1 ? ` (attempt ${e.payload.attempt})` : ""}${e.payload.purpose ? `: ${clip(e.payload.purpose)}` : "."}`,
        );
        break;
      case "tool.result":
        add(
          e,
          e.payload.status === "success"
            ? `${e.payload.tool_name} succeeded.`
            : `${e.payload.tool_name} failed: ${e.payload.error ? `${e.payload.error.error_code} — ${clip(e.payload.error.message_safe)}` : "no reason recorded"}.`,
        );
        break;
      case "policy.violation":
        add(
          e,
          `The policy pack ${e.payload.mode === "warn" ? "warned about" : "refused"} a ${e.payload.event_type} (${e.payload.violated_policy_id}, ${e.payload.code}): ${clip(e.payload.message_safe)}`,
        );
        break;
      case "job.handed_over":
        add(
          e,
          `${name(e.actor.entity_id)} handed it over from ${name(e.payload.from_entity_id)} to ${name(e.payload.to_entity_id)}${e.payload.note ? `: ${clip(e.payload.note)}` : "."}`,
        );
        break;
      case "job.disputed":
        add(e, `${name(e.actor.entity_id)} disputed it: ${clip(e.payload.reason_text)}`);
        break;
      case "job.completed": {
        const o = e.payload.finished_card.outcome;
        add(e, `It finished: ${o.result}${o.summary ? ` — ${clip(o.summary)}` : "."}`);
        break;
      }
      default:
        break;
    }
  }
  return { job_id: jobId, title, lines };
}

function findCause(ledger: LedgerApi, tenantId: string, eventId: string, beforeSeq: number): TStoredEvent | undefined {
  const from = Math.max(0, beforeSeq - CAUSE_LOOKBACK);
  const page = ledger.query({ tenant_id: tenantId, event_type: "message.sent", after_cursor: `seq:${from}`, limit: CAUSE_LOOKBACK });
  return page.events.find((e) => e.event_id === eventId);
}

const words = (state: string) => state.replace("_", " ");

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > QUOTE_CHARS ? `${one.slice(0, QUOTE_CHARS - 1)}…` : one;
}

/** Renders the chain as one chat reply (plain text; each line names its event). */
export function whyReply(why: TWhyResponse): string {
  if (!why.lines.length) return `I have no recorded events for “${why.title}”.`;
  return [`Why “${why.title}” — from the ledger:`, ...why.lines.map((l) => `• ${l.text}`)].join("\n").slice(0, 4000);
}
