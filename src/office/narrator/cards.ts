import type {
  TArtifactRef,
  TCardButton,
  TFinishedCard,
  TFormalizeCard,
  TStep,
  TTrackingCard,
} from "../../../contracts/cards.js";
import type { TJobState } from "../../../contracts/primitives.js";
import { type CardContext, formalizeButtons, say } from "./buttons.js";

/**
 * Pure card builders: the three cards a job shows (formalize, tracking, finished), with the
 * button sets of ./buttons.ts. Ids and time come in; nothing here reads a clock or the ledger.
 */

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

export function buildFormalizeCard(
  c: CardContext,
  job: TFormalizeCard["job"] & { kind?: string; slots?: Record<string, unknown> },
  extra: { plan_hint?: string[]; parent_job_id?: string } = {},
): TFormalizeCard {
  return {
    ...base(c, "proposed"),
    card_type: "job.formalize",
    summary: say(c)("office.card.formalize.summary"),
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
    // The summary says what the card's state says: a waiting card names who it waits on.
    summary:
      t.state === "waiting_input"
        ? t.waiting_on?.length
          ? say(c)("office.card.tracking.waitingOn", { names: t.waiting_on.map((w) => w.display_name).join(", ") })
          : say(c)("office.card.tracking.waiting")
        : say(c)("office.card.tracking.summary"),
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
    summary: f.result === "completed" ? say(c)("office.card.finished.done") : say(c)("office.card.finished.failed"),
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
