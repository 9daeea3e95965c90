import { ACTIVE_JOB_STATES, TERMINAL_JOB_STATES } from "../../../contracts/primitives.js";
import type { TStoredEvent } from "../../../contracts/events.js";
import type { TWhyLine, TWhyResponse } from "../../../contracts/people.js";
import type { LedgerDoorApi } from "../../ledger/index.js";
import { AppError } from "../../shared/errors.js";
import { answerWords } from "../narrator.js";
import { readAll } from "./ledger-reads.js";
import { type Translate, words } from "../speak.js";

/** How far back before a job's creation its causing message is looked for. */
const CAUSE_LOOKBACK = 200;
const QUOTE_CHARS = 160;

/**
 * "Why did you do that?": a job's causal chain told from its ledger events only — the message
 * that started it, the proposal, approvals and refusals, policy decisions, tool calls and their
 * results, hand-overs and the outcome. Each line names the event it was built from and links to
 * it in the Job Drawer. Nothing here is inferred: an event that is not in the ledger is not told.
 * It is told in the reader's language (`t`); what people wrote is quoted as they wrote it.
 */
export async function explainJob(
  deps: { ledger: LedgerDoorApi; name: (tenantId: string, entityId: string) => string },
  tenantId: string,
  jobId: string,
  t: Translate = words(),
): Promise<TWhyResponse> {
  const events = await readAll(deps.ledger, { tenant_id: tenantId, job_id: jobId });
  const created = events.find((e) => e.event_type === "job.created");
  if (created?.event_type !== "job.created") throw new AppError("NOT_FOUND", "Job not found");
  const name = (id: string) => deps.name(tenantId, id);
  const lines: TWhyLine[] = [];
  const add = (e: TStoredEvent, text: string) =>
    lines.push({
      event_id: e.event_id,
      event_type: e.event_type,
      ts: e.ts,
      text,
      url: `/jobs/${encodeURIComponent(jobId)}#${encodeURIComponent(e.event_id)}`,
    });

  const cause = created.causation_id
    ? await findCause(deps.ledger, tenantId, created.causation_id, created.seq)
    : undefined;
  if (cause?.event_type === "message.sent") {
    const who = name(cause.actor.entity_id);
    // A message from another conversation is named, never quoted: this chain is read by this job's conversation.
    if (cause.conversation_id === created.conversation_id && cause.payload.body_text)
      add(cause, t("office.why.startedWith", { who, text: clip(cause.payload.body_text) }));
    else add(cause, t("office.why.startedElsewhere", { who }));
  }
  let title = created.payload.title;
  const note = (text: string | undefined) => (text ? t("office.why.colon", { text: clip(text) }) : ".");
  for (const e of events) {
    const who = name(e.actor.entity_id);
    switch (e.event_type) {
      case "job.created":
        add(e, t("office.why.created", { who, title: e.payload.title }));
        break;
      case "job.proposed":
        title = e.payload.proposed_card.title;
        add(e, t("office.why.proposed", { who, goal: clip(e.payload.proposed_card.job.goal) }));
        break;
      case "job.approved":
        add(e, t("office.why.approved", { who }));
        break;
      case "job.rejected":
        add(e, t("office.why.rejected", { who, reason: note(e.payload.reason_text) }));
        break;
      case "job.changes_requested":
        add(e, t("office.why.changes", { who, text: clip(e.payload.changes_text) }));
        break;
      case "job.input_provided":
        add(
          e,
          t("office.why.input", { who, keys: Object.keys(e.payload.inputs).join(", ") || t("office.why.input.none") }),
        );
        break;
      case "job.state_changed":
        add(
          e,
          t("office.why.state", {
            from: stateName(e.payload.prev_state, t),
            to: stateName(e.payload.next_state, t),
            reason: e.payload.reason_code ? t("office.why.paren", { text: e.payload.reason_code }) : "",
            note: note(e.payload.note),
          }),
        );
        break;
      case "tool.called":
        add(
          e,
          t("office.why.called", {
            who,
            tool: e.payload.tool_name,
            attempt: (e.payload.attempt ?? 1) > 1 ? t("office.why.attempt", { attempt: e.payload.attempt }) : "",
            purpose: note(e.payload.purpose),
          }),
        );
        break;
      case "tool.result":
        add(
          e,
          e.payload.status === "success"
            ? t("office.why.succeeded", { tool: e.payload.tool_name })
            : t("office.why.failed", {
                tool: e.payload.tool_name,
                error: e.payload.error
                  ? `${e.payload.error.error_code} — ${clip(e.payload.error.message_safe)}`
                  : t("office.why.noReason"),
              }),
        );
        break;
      case "policy.violation":
        add(
          e,
          t(e.payload.mode === "warn" ? "office.why.policy.warned" : "office.why.policy.refused", {
            type: e.payload.event_type,
            policy: e.payload.violated_policy_id,
            code: e.payload.code,
            message: clip(e.payload.message_safe),
          }),
        );
        break;
      case "job.handed_over":
        add(
          e,
          t("office.why.handedOver", {
            who,
            from: name(e.payload.from_entity_id),
            to: name(e.payload.to_entity_id),
            note: note(e.payload.note),
          }),
        );
        break;
      case "job.reply_received":
        // An invitee's answer by mail, in the words its card used.
        add(e, answerWords(e.payload, t));
        break;
      case "job.disputed":
        add(e, t("office.why.disputed", { who, reason: clip(e.payload.reason_text) }));
        break;
      case "job.completed": {
        const o = e.payload.finished_card.outcome;
        add(
          e,
          t("office.why.finished", {
            result: resultName(o.result, t),
            summary: o.summary ? ` — ${clip(o.summary)}` : ".",
          }),
        );
        break;
      }
      default:
        break;
    }
  }
  return { job_id: jobId, title, lines };
}

async function findCause(
  ledger: LedgerDoorApi,
  tenantId: string,
  eventId: string,
  beforeSeq: number,
): Promise<TStoredEvent | undefined> {
  const from = Math.max(0, beforeSeq - CAUSE_LOOKBACK);
  const page = await ledger.query({
    tenant_id: tenantId,
    event_type: "message.sent",
    after_cursor: `seq:${from}`,
    limit: CAUSE_LOOKBACK,
  });
  return page.events.find((e) => e.event_id === eventId);
}

/** The states a job is ever shown in (a draft never is). */
const STATES = new Set<string>([...ACTIVE_JOB_STATES, ...TERMINAL_JOB_STATES]);
const RESULTS = new Set(["completed", "failed", "cancelled"]);
/** A job state as the chain names it ("in progress"); an unknown one as recorded. */
const stateName = (state: string, t: Translate) =>
  STATES.has(state) ? t(`office.why.stateName.${state}`) : state.replace("_", " ");
const resultName = (result: string, t: Translate) => (RESULTS.has(result) ? t(`office.why.result.${result}`) : result);

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > QUOTE_CHARS ? `${one.slice(0, QUOTE_CHARS - 1)}…` : one;
}

/** Renders the chain as one chat reply (plain text; each line names its event). */
export function whyReply(why: TWhyResponse, t: Translate = words()): string {
  if (!why.lines.length) return t("office.why.nothing", { title: why.title });
  return [t("office.why.heading", { title: why.title }), ...why.lines.map((l) => `• ${l.text}`)]
    .join("\n")
    .slice(0, 4000);
}
