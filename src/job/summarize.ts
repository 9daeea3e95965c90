import type { TCardButton } from "../../contracts/cards.js";
import type { TJobState } from "../../contracts/primitives.js";
import { cardFitsState, isActionAllowed, mayClick } from "./transitions.js";

/** What `summarize` needs of a job: any fold of it (Office's view, the gateway's row) has these. */
export interface JobFacts {
  state: TJobState;
  /** Set once a person took the job over: its agent's buttons no longer act on it. */
  handed_over?: unknown;
  /** The job's latest card: the only one that speaks for the job now. Earlier cards are overtaken. */
  last_card?: { card_id: string; card_type: string; buttons: readonly TCardButton[] } | undefined;
}

/** Who is looking: their id and workspace roles. */
export interface Viewer {
  entity_id: string;
  roles: readonly string[];
}

export interface JobSummary {
  /** The card whose buttons these are (the job's latest card), if it has one. */
  card_id?: string;
  /** The buttons this viewer may press now, in the card's order; empty when there is nothing to do. */
  actions: TCardButton[];
}

/**
 * What a viewer may do with a job now. The chat card and the Job Drawer both show exactly these
 * buttons, live, after a reload and after a restart, and a click on anything else is refused:
 * the latest card's buttons, when that card still fits the job's state, that the state accepts
 * and that this viewer may press (Approve and Reject are an approver's). A handed-over job's
 * agent no longer acts on it, so only "Ask in chat" is left.
 */
export function summarize(job: JobFacts, viewer: Viewer): JobSummary {
  const card = job.last_card;
  if (!card) return { actions: [] };
  // A person holds the job: the card that says so speaks for it, and only asking is left.
  if (job.handed_over)
    return { card_id: card.card_id, actions: card.buttons.filter((b) => b.action.type === "chat.ask") };
  if (!cardFitsState(card.card_type, job.state)) return { card_id: card.card_id, actions: [] };
  const actions = card.buttons.filter(
    (b) => isActionAllowed(job.state, b.action.type) && mayClick(viewer.roles, b.action.type),
  );
  return { card_id: card.card_id, actions };
}

/** True when `summarize` offers this viewer that button on that card now. */
export function offers(job: JobFacts, viewer: Viewer, cardId: string, buttonId: string): boolean {
  const s = summarize(job, viewer);
  return s.card_id === cardId && s.actions.some((b) => b.button_id === buttonId);
}
