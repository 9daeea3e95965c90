import type { TFormalizeCard } from "../../../contracts/cards.js";
import type { TSuggestionView } from "../../../contracts/llm.js";
import { dueFromWindow } from "../assist/assist-rules.js";
import { parseWhen } from "../when/index.js";
import type { Suggestion } from "./suggestions.js";

/**
 * What Apply does with each suggestion type, as pure data → data. A proposed job carries the
 * change on a re-proposed Formalize card (the person approves it like any proposal); a
 * suggestion no card can carry is posted in the conversation instead.
 */

/** Suggestions Apply knows how to carry out (the others are refused by the list, not shown). */
export const APPLICABLE = new Set([
  "set_due_date",
  "set_priority",
  "split_subtasks",
  "rewrite_title",
  "propose_next_action",
  "defer_task",
]);
/** Changes a Formalize card can carry; the rest are posted as a chat message. */
export const REPROPOSE = new Set(["set_due_date", "set_priority", "split_subtasks", "rewrite_title", "defer_task"]);

type Priority = NonNullable<TFormalizeCard["job"]["priority"]>;

/** The fields of a Formalize card a suggestion changes; `due_at: null` clears the due date. */
export interface CardChange {
  title?: string;
  due_at?: string | null;
  priority?: Priority;
  plan_hint?: string[];
}

/**
 * `defer_task` (001: someday | next_week | next_month) mapped onto what a job has: someday
 * lowers the priority and drops the due date; next_week is due at the end of next week's
 * Friday, next_month at the end of next month's last day (17:00 UTC, like set_due_date's
 * windows).
 */
export function deferral(strategy: string, nowMs: number): CardChange {
  if (strategy === "someday") return { priority: "low", due_at: null };
  if (strategy === "next_week")
    return { due_at: dueFromWindow(parseWhen("next week", { now: nowMs, timezone: "UTC" }) ?? undefined) };
  const now = new Date(nowMs);
  // Day 0 of the month after next is the last day of next month.
  return { due_at: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 0, 17)).toISOString() };
}

/** The card change a suggestion makes; `clean` sanitizes text that goes onto the card (PII). */
export function cardChangeOf(
  s: Pick<TSuggestionView, "type" | "payload">,
  nowMs: number,
  clean: (text: string) => string,
): CardChange {
  const p = s.payload;
  switch (s.type) {
    case "set_due_date":
      return { due_at: String(p.dueDateISO) };
    case "set_priority":
      return { priority: p.priority as Priority };
    case "split_subtasks":
      return { plan_hint: (p.subtasks as Array<{ title: string }>).map((x) => clean(x.title).slice(0, 200)) };
    case "rewrite_title":
      return { title: clean(String(p.title)).slice(0, 120) };
    case "defer_task":
      return deferral(String(p.strategy), nowMs);
    default:
      return {};
  }
}

/**
 * Applies a change to a freshly built card, keeping the due date and priority an earlier Assist
 * change put on the previous card (a fresh card would otherwise silently drop them).
 */
export function applyCardChange(card: TFormalizeCard, previous: TFormalizeCard, change: CardChange): TFormalizeCard {
  const job = { ...card.job };
  if (previous.job.due_at) job.due_at = previous.job.due_at;
  if (previous.job.priority) job.priority = previous.job.priority;
  if (change.due_at === null) delete job.due_at;
  else if (change.due_at) job.due_at = change.due_at;
  if (change.priority) job.priority = change.priority;
  const out: TFormalizeCard = { ...card, job, ...(change.title ? { title: change.title } : {}) };
  if (change.plan_hint) out.plan_hint = change.plan_hint;
  else if (previous.plan_hint) out.plan_hint = previous.plan_hint;
  return out;
}

/** The drawer's view of a validated suggestion; `onCard` when Apply will re-propose the job's Formalize card. */
export function suggestionView(s: Suggestion, onCard: boolean): TSuggestionView {
  return {
    suggestion_id: s.suggestionId,
    type: s.type,
    confidence: s.confidence,
    rationale: s.rationale,
    requires_confirmation: s.requiresConfirmation === true,
    preview: previewOf(s),
    payload: s.payload,
    // What Apply will do, so the drawer can say it before the click (the job's state can still change).
    applies_as: onCard && REPROPOSE.has(s.type) ? "card" : "message",
  };
}

function previewOf(s: Suggestion): string {
  const p = s.payload;
  switch (s.type) {
    case "set_due_date":
      return `Set the due date to ${String(p.dueDateISO).slice(0, 16).replace("T", " ")} UTC`;
    case "set_priority":
      return `Set the priority to ${String(p.priority)}`;
    case "split_subtasks":
      return `Split into steps: ${(p.subtasks as Array<{ title: string }>).map((x) => x.title).join(" → ")}`;
    case "rewrite_title":
      return `Rename to “${String(p.title)}”`;
    case "defer_task":
      return `Defer (${String(p.strategy).replace("_", " ")})`;
    default:
      return String(p.text ?? p.title ?? s.type);
  }
}
