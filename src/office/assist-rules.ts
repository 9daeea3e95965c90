import type { TFormalizeCard } from "../../contracts/cards.js";
import { isOpenState, type JobView } from "./job-machine.js";
import { letterHash } from "./job-engine.js";
import { parseTimeWindow } from "./time-window.js";

/**
 * Assist without a model: suggestions derived from what the job already says (its slots, its
 * plan, its state), shaped as a 001 envelope so they pass the same validator as a model's. The
 * feature works offline and the same job always gets the same suggestions (stable ids).
 */
export function rulesSuggestions(job: JobView, nowMs: number): Record<string, unknown> {
  const out: Array<Record<string, unknown>> = [];
  const add = (type: string, payload: Record<string, unknown>, rationale: string, confidence = 0.7) =>
    out.push({ type, suggestionId: `sug_${type}_${letterHash(`${job.job_id}|${type}|${JSON.stringify(payload)}`, 10)}`, confidence, rationale, payload: { jobId: job.job_id, ...payload } });

  const open = isOpenState(job.state);
  const plan = (job.latest["job.formalize"] as TFormalizeCard | undefined)?.plan_hint ?? [];
  if (open && plan.length >= 2) {
    add("split_subtasks", { subtasks: plan.slice(0, 5).map((title, i) => ({ title: title.slice(0, 120), order: i + 1 })) }, "The plan already has separate steps", 0.8);
  }
  const due = dueFromWindow(`${job.slots.day_hint ?? ""} ${job.slots.time_window ?? ""}`, nowMs);
  if (open && due) add("set_due_date", { dueDateISO: due }, "Due by the end of the time window you gave", 0.6);
  if (open && /\b(urgent|asap|as soon as possible|today)\b/i.test(`${job.goal} ${job.title}`)) add("set_priority", { priority: "high" }, "The request sounds time critical", 0.6);
  const next = NEXT_ACTION[job.state];
  if (next) add("propose_next_action", { text: next }, "What usually moves a job in this state", 0.5);
  return { contractVersion: 1, surface: "job_drawer", must_abstain: out.length === 0, suggestions: out };
}

const NEXT_ACTION: Record<string, string> = {
  proposed: "Review the proposal, then approve it or request changes.",
  waiting_input: "Provide the missing details on the job’s card so the work can continue.",
  failed: "Retry, or switch to another tool or a person.",
  completed: "Create a follow-up job if anything is left to do.",
};

/** The last moment of the window's first day, as an ISO time (UTC); none when the window names no day. */
export function dueFromWindow(text: string, nowMs: number): string | null {
  const w = parseTimeWindow(text);
  const now = new Date(nowMs);
  let day: Date | null = null;
  if (w.date && w.date.y > 0) day = new Date(Date.UTC(w.date.y, w.date.m - 1, w.date.d));
  else if (w.date) day = new Date(Date.UTC(now.getUTCFullYear(), w.date.m - 1, w.date.d));
  else if (w.day === "today") day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  else if (w.day === "tomorrow") day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  else if (w.weekdays?.length) {
    // The last weekday of the window, in the coming week (or the one after, for "next week").
    const last = w.weekdays.at(-1)!;
    const ahead = ((last - now.getUTCDay() + 7) % 7 || 7) + (w.week === "next" ? 7 : 0);
    day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + ahead));
  } else if (w.week === "next") {
    const toFriday = ((5 - now.getUTCDay() + 7) % 7) + 7;
    day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + toFriday));
  }
  if (!day) return null;
  const minutes = w.toMin ?? 17 * 60;
  return new Date(day.getTime() + minutes * 60_000).toISOString();
}
