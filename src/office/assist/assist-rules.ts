import type { TFormalizeCard } from "../../../contracts/cards.js";
import { isOpenState } from "../../job/transitions.js";
import type { JobView } from "../job-machine.js";
import { letterHash } from "../engine/job-engine.js";
import { Temporal } from "temporal-polyfill";
import type { TWhen } from "../../../contracts/when.js";
import { parseWhen } from "../when/index.js";
import { words } from "../speak.js";

/**
 * Assist without a model: suggestions derived from what the job already says (its slots, its
 * plan, its state), shaped as a 001 envelope so they pass the same validator as a model's. The
 * feature works offline and the same job always gets the same suggestions (stable ids). Their
 * words are in the job's language.
 */
export function rulesSuggestions(job: JobView, _nowMs: number): Record<string, unknown> {
  const t = words(job.slots.locale);
  const out: Array<Record<string, unknown>> = [];
  const add = (type: string, payload: Record<string, unknown>, rationale: string, confidence = 0.7) =>
    out.push({
      type,
      suggestionId: `sug_${type}_${letterHash(`${job.job_id}|${type}|${JSON.stringify(payload)}`, 10)}`,
      confidence,
      rationale,
      payload: { jobId: job.job_id, ...payload },
    });

  const open = isOpenState(job.state);
  const plan = (job.latest["job.formalize"] as TFormalizeCard | undefined)?.plan_hint ?? [];
  if (open && plan.length >= 2) {
    add(
      "split_subtasks",
      { subtasks: plan.slice(0, 5).map((title, i) => ({ title: title.slice(0, 120), order: i + 1 })) },
      t("office.assist.split"),
      0.8,
    );
  }
  // The window given, or the week the request named ("next week"), read as of the request.
  const hinted = job.slots.day_hint
    ? parseWhen(job.slots.day_hint, {
        now: Date.parse(job.created_at),
        timezone: job.slots.timezone ?? "UTC",
        locale: job.slots.locale,
      })
    : null;
  const due = dueFromWindow(job.slots.when ?? hinted ?? undefined);
  if (open && due) add("set_due_date", { dueDateISO: due }, t("office.assist.due"), 0.6);
  if (
    open &&
    (/\b(urgent|asap|as soon as possible|today)\b/i.test(`${job.goal} ${job.title}`) ||
      URGENT_PT.test(`${job.goal} ${job.title}`))
  )
    add("set_priority", { priority: "high" }, t("office.assist.urgent"), 0.6);
  if (NEXT_ACTION.has(job.state))
    add("propose_next_action", { text: t(`office.assist.next.${job.state}`) }, t("office.assist.next"), 0.5);
  return { contractVersion: 1, surface: "job_drawer", must_abstain: out.length === 0, suggestions: out };
}

/** The states with a usual next move (office.assist.next.<state> in the catalogs). */
const NEXT_ACTION = new Set(["proposed", "waiting_input", "failed", "completed"]);
const URGENT_PT = /(?<![\p{L}])(?:urgente|hoje|o mais depressa possível|quanto antes)(?![\p{L}])/iu;

/** The end of the window's last day (its daily end time, in its zone), as an ISO instant; none without a window. */
export function dueFromWindow(when: TWhen | undefined): string | null {
  if (!when) return null;
  // The last day of the window the meeting may fall on ("next week" ends on its Friday).
  let last = Temporal.PlainDate.from(when.end_date);
  const first = Temporal.PlainDate.from(when.start_date);
  while (when.weekdays && !when.weekdays.includes(last.dayOfWeek) && Temporal.PlainDate.compare(last, first) > 0)
    last = last.subtract({ days: 1 });
  const end = last.toZonedDateTime({ timeZone: when.timezone, plainTime: Temporal.PlainTime.from(when.to_time) });
  return new Date(end.epochMilliseconds).toISOString();
}
