import type { TInputSchema, TStep } from "../../../contracts/cards.js";
import type { JobSlots } from "../job-machine.js";
import { type Translate, words } from "../speak.js";
import { MEETING_OPTIONS, meetingLabel, meetingOptions } from "../tools/meeting-rooms.js";
import type { ToolErrorCode } from "../tools/tool.js";

/**
 * The words of a running job's Tracking card: what it waits for, its steps, its forms and their
 * errors, why it stopped. Nothing here says a tool did something; that is ./outcomes.ts, from the
 * tool's recorded result.
 */

const EN = words();

export const slug = (name?: string) =>
  (name ?? "attendee")
    .split(/\s+/)[0]!
    .toLowerCase()
    .normalize("NFD")
    .replace(/[^a-z0-9]/g, "") || "attendee";
const firstName = (name?: string) => name?.split(/\s+/)[0] ?? "";

const MISSING_LABEL: Record<string, (s: JobSlots, t: Translate) => string> = {
  attendee_email: (s, t) =>
    s.attendee_name
      ? t("office.missing.email", { name: firstName(s.attendee_name) })
      : t("office.missing.emailUnnamed"),
  time_window: (_s, t) => t("office.missing.timeWindow"),
  timezone: (_s, t) => t("office.missing.timezone"),
  meeting_link: (_s, t) => t("office.missing.meetingLink"),
  meeting_url: (s, t) => t("office.missing.meetingUrl", { service: s.link_label ?? t("office.meeting.word") }),
};

export function waitingStatus(missing: string[], s: JobSlots, t: Translate = EN): string {
  return t("office.waiting.for", { items: missing.map((k) => MISSING_LABEL[k]?.(s, t) ?? k).join(" + ") });
}

export function meetingSteps(
  phase: "collect" | "create" | "send" | "done" | "retry" | "blocked_tool" | "blocked_send",
  t: Translate = EN,
): TStep[] {
  const st = (collect: TStep["state"], create: TStep["state"], send: TStep["state"]): TStep[] => [
    { key: "collect_inputs", label: t("office.step.collect"), state: collect },
    { key: "create_invite", label: t("office.step.create"), state: create },
    { key: "send_invite", label: t("office.step.send"), state: send },
  ];
  if (phase === "collect") return st("blocked", "todo", "todo");
  if (phase === "create") return st("done", "doing", "todo");
  if (phase === "retry") return st("done", "doing", "todo");
  if (phase === "blocked_tool") return st("done", "blocked", "todo");
  if (phase === "send") return st("done", "done", "doing");
  if (phase === "blocked_send") return st("done", "done", "blocked");
  return st("done", "done", "done");
}

/** The meeting places this server can really offer. */
export const LINK_OPTIONS = MEETING_OPTIONS;

/** The Provide info form: only what is missing (or wrong), with what is known prefilled. */
export function meetingInputSchema(
  missing: string[],
  s: JobSlots,
  defaultTz: string,
  errors: Record<string, string> = {},
  given: Record<string, unknown> = {},
  t: Translate = EN,
): TInputSchema {
  const fields: TInputSchema["fields"] = [];
  const err = (k: string) => (errors[k] ? { error: errors[k] } : {});
  const prev = (k: string) => (typeof given[k] === "string" && !errors[k] ? { default_value: given[k] as string } : {});
  if (missing.includes("attendee_email"))
    fields.push({
      key: `${slug(s.attendee_name)}_email`,
      label: t("office.form.email.label", { name: firstName(s.attendee_name) || t("office.form.attendee") }),
      type: "string",
      required: true,
      placeholder: t("office.form.email.placeholder"),
      ...err(`${slug(s.attendee_name)}_email`),
    });
  if (missing.includes("time_window"))
    fields.push({
      key: "time_window",
      label: t("office.form.timeWindow.label"),
      type: "multiline",
      required: true,
      placeholder: t("office.form.timeWindow.placeholder"),
      ...prev("time_window"),
      ...err("time_window"),
    });
  if (missing.includes("timezone"))
    fields.push({
      key: "timezone",
      label: t("office.form.timezone.label"),
      type: "string",
      required: true,
      placeholder: defaultTz,
      default_value: defaultTz,
      hint: t("office.form.timezone.hint"),
      ...err("timezone"),
    });
  if (missing.includes("meeting_link"))
    fields.push({
      key: "meeting_link",
      label: t("office.form.meetingLink.label"),
      type: "select",
      required: true,
      options: meetingOptions(t),
      ...err("meeting_link"),
    });
  if (missing.includes("meeting_url") || missing.includes("meeting_link"))
    fields.push({
      key: "meeting_url",
      label: t("office.form.meetingUrl.label", { service: s.link_label ?? t("office.meeting.word") }),
      type: "string",
      required: missing.includes("meeting_url"),
      placeholder: "https://…",
      hint: t("office.form.meetingUrl.hint"),
      ...err("meeting_url"),
    });
  return { fields };
}

const RETRY_WHAT: Record<string, string> = {
  PROVIDER_TIMEOUT: "office.retry.timeout",
  PROVIDER_RATE_LIMIT: "office.retry.rateLimit",
  PROVIDER_UNAVAILABLE: "office.retry.unavailable",
  UNKNOWN: "office.retry.unknown",
};

export function retryStatus(code: ToolErrorCode, delayMs: number, t: Translate = EN): string {
  // "minutes" from two minutes of delay on, as the words always were (90 s reads "~2 minute").
  const when =
    delayMs < 60_000
      ? t("office.retry.seconds", { count: Math.round(delayMs / 1000) })
      : t("office.retry.minutes", { count: Math.round(delayMs / 60_000), unit: delayMs >= 120_000 ? "many" : "one" });
  return t("office.retry.status", { what: t(RETRY_WHAT[code] ?? "office.retry.failed"), when });
}

export const authStatus = (t: Translate = EN) => t("office.status.auth");
export const invalidStatus = (t: Translate = EN) => t("office.status.invalid");
export const exhaustedSummary = (t: Translate = EN) => t("office.status.exhausted");

/** The other meeting place "Switch" offers: one that needs no outside service at all. */
export function alternativeLink(current?: string, t: Translate = EN): { value: string; label: string } {
  return current === "phone"
    ? { value: "jitsi", label: meetingLabel("jitsi", undefined, t) }
    : { value: "phone", label: meetingLabel("phone", undefined, t) };
}

/** A dispute paused the job: its reason as the person typed it (scrubbed), and why the job waits. */
export const disputedPause = (reason: string, t: Translate = EN) => ({
  status_line: t("office.decide.paused", { reason }).slice(0, 300),
  blockers: [t("office.decide.disputed")],
});

/** The form a person answers when the work handed to them is done. */
export const handoffDoneSchema = (t: Translate = EN): TInputSchema => ({
  fields: [
    {
      key: "info",
      label: t("office.step.handoff.doneLabel"),
      type: "multiline",
      required: true,
      placeholder: t("office.step.handoff.donePlaceholder"),
    },
  ],
});

/** Work handed to a person: who does it (when anybody is on record) and the two steps. */
export const handoffWaiting = (person: string | undefined, t: Translate = EN) => ({
  status_line: t("office.step.handoff.status", { person: person ?? t("office.step.handoff.somebody") }),
  steps: [
    { key: "take", label: t("office.step.handoff.taken"), state: "done" },
    { key: "do_work", label: t("office.step.handoff.byPerson"), state: "doing" },
  ] satisfies TStep[],
});

/** Work no tool can do: the job waits for a person to do it. */
export const genericWaiting = (t: Translate = EN) => ({
  status_line: t("office.step.generic.status"),
  blockers: [t("office.step.generic.blocker")],
  steps: [
    { key: "confirm", label: t("office.step.generic.confirm"), state: "done" },
    { key: "do_work", label: t("office.step.generic.work"), state: "blocked" },
  ] satisfies TStep[],
});

/** The calendar tool is not in the agent's allowed tools. */
export const calendarNotAllowed = (tool: string, t: Translate = EN) => ({
  status_line: t("office.step.notAllowed.status", { tool }),
  blockers: [t("office.step.notAllowed.blocker", { tool })],
});

/** The line while the invite is written (or moved, kept, cancelled), before the tool has answered. */
export const workingLine = (change: "move" | "cancel" | "keep" | undefined, t: Translate = EN) =>
  t(change ? `office.change.working.${change}` : "office.step.creating");

/** The email is sent again: to whom, as the job recorded it (redacted). */
export const resendingLine = (to: string | undefined, t: Translate = EN) =>
  t("office.decide.resending", { to: to ?? t("office.outcome.theAttendee") });

/** A form answer was refused: what is wrong with it, field by field. */
export const pleaseFix = (errors: Record<string, string>, t: Translate = EN) =>
  t("office.decide.pleaseFix", { errors: Object.values(errors).join(" ") }).slice(0, 300);

/** A meeting place's name on the options this server offers ("Jitsi Meet room"), else the value itself. */
export const placeName = (value: string | undefined, t: Translate = EN) =>
  meetingOptions(t).find((o) => o.value === value)?.label ?? value;

/** A tool job's two steps: call the tool, report what it answered. */
export function toolSteps(doing: "approve" | "call" | "done" | "blocked", t: Translate = EN): TStep[] {
  const call: TStep["state"] =
    doing === "call" ? "doing" : doing === "approve" ? "todo" : doing === "blocked" ? "blocked" : "done";
  return [
    { key: "call", label: t("office.mcp.step.call"), state: call },
    { key: "report", label: t("office.mcp.step.report"), state: doing === "done" ? "done" : "todo" },
  ];
}

/** The agent may not use the tool (its mode is off): why the job waits, and what to ask. */
export function toolNotAllowed(tool: string | undefined, t: Translate = EN) {
  const name = tool ?? t("office.mcp.theTool");
  return {
    status_line: t("office.mcp.notAllowed", { tool: name }),
    blockers: [t("office.mcp.notAllowed.blocker", { tool: name })],
    ask: t("office.mcp.ask.whoCanAllow", { tool: name }),
    note: t("office.mcp.note.off", { tool: name }),
  };
}

/** A call is running: the line says the tool is being called (not that it answered). */
export const toolCalling = (tool: string, t: Translate = EN) => ({
  status_line: t("office.mcp.calling", { tool }),
  ask: toolAsk(tool, t),
});

/** The Ask in chat prompt while a tool's call runs. */
export const toolAsk = (tool: string, t: Translate = EN) => t("office.mcp.ask.doing", { tool });

/** What the tool reported of its progress: its own message, else "step n of m". */
export function toolProgressLine(
  tool: string,
  p: { progress: number; total?: number | undefined; message?: string | undefined },
  t: Translate = EN,
): string {
  const said = p.message
    ? p.message.slice(0, 200)
    : p.total
      ? t("office.mcp.progress.of", { progress: p.progress, total: p.total })
      : t("office.mcp.progress.step", { progress: p.progress });
  return `${tool}: ${said}`.slice(0, 300);
}

/** The Ask in chat prompt after a tool's call failed. */
export const toolFailedAsk = (tool: string, t: Translate = EN) => t("office.mcp.ask.whyFailed", { tool });

/** What can be wrong with a form answer (the gate finds it; the card says it). */
export type FormProblem =
  | "disputeReason"
  | "required"
  | "number"
  | "boolean"
  | "select"
  | "text"
  | "email"
  | "timezone"
  | "timeWindow"
  | "meetingUrl"
  | "unknownField";

/** A form field's error, in the words of the job's language. */
export function formError(
  problem: FormProblem,
  field: { label?: string; options?: ReadonlyArray<{ label: string }> | undefined } = {},
  t: Translate = EN,
): string {
  if (problem === "select")
    return t("office.form.error.select", { options: field.options?.map((o) => o.label).join(", ") ?? "" });
  return t(`office.form.error.${problem}`, { label: field.label ?? "" });
}
